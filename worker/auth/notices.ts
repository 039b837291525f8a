import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { users } from "../../db/schema";
import { sendEmail } from "../email/email";
import { safeError } from "../lib/safe-error";
import type { AppEnv } from "../types";
import type { Device } from "./session";

/**
 * E-mails that tell the owner something changed on their account (ASVS V2.2.3, V2.5.5): so a
 * change they did not make is noticed. Sent after the answer (waitUntil): a slow provider never
 * delays the sign-in, and a failure is logged without the address.
 */
export type Notice =
  "password_changed" | "password_reset" | "google_linked" | "new_device" | "two_factor_enabled" | "two_factor_disabled";

const SUBJECTS: Record<Notice, string> = {
  password_changed: "Your Fleet Ops password was changed",
  password_reset: "Your Fleet Ops password was reset",
  google_linked: "Google sign-in was linked to your Fleet Ops account",
  new_device: "New sign-in to your Fleet Ops account",
  two_factor_enabled: "Two-factor authentication is on for your Fleet Ops account",
  two_factor_disabled: "Two-factor authentication was turned off for your Fleet Ops account",
};

function bodyOf(notice: Notice, device: Device | undefined, settingsUrl: string): string {
  const what = {
    password_changed: "The password of your Fleet Ops account was just changed, and every other device was signed out.",
    password_reset:
      "The password of your Fleet Ops account was just reset with a link sent to this address, and every device was signed out.",
    google_linked: "Your Fleet Ops account can now be signed in to with Google.",
    two_factor_enabled:
      "Signing in to your Fleet Ops account now asks for a code from your authenticator app (or a recovery code).",
    two_factor_disabled: "Signing in to your Fleet Ops account no longer asks for a code from an authenticator app.",
    new_device: `Your Fleet Ops account was just signed in to from a device or network it had not been used from${
      device ? ` (${device.userAgent ?? "unknown browser"}, network ${device.network ?? "unknown"})` : ""
    }.`,
  }[notice];
  return `${what}\n\nIf this was you, there is nothing to do.\nIf it was not, reset your password and review your sessions at ${settingsUrl}`;
}

export async function sendAccountNotice(
  c: Context<AppEnv>,
  userId: string,
  notice: Notice,
  device?: Device,
): Promise<void> {
  const owner = await c.var.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!owner) return;
  const settingsUrl = new URL("/settings", c.var.config.APP_URL).href;
  const sending = sendEmail(c.var.db, c.var.config, {
    to: owner.email,
    subject: SUBJECTS[notice],
    text: bodyOf(notice, device, settingsUrl),
  });
  c.executionCtx.waitUntil(
    sending.catch((error) => console.error(`account notice ${notice} failed:`, safeError(error))),
  );
}
