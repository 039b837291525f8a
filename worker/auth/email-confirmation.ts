import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { emailConfirmations, users } from "../../db/schema";
import { sendEmail } from "../email/email";
import { releaseHeldMail } from "../email/release";
import type { Config } from "../env";
import { audit } from "../lib/audit";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { safeError } from "../lib/safe-error";
import type { AppEnv } from "../types";

/**
 * Confirming an account's address (issue 39, docs/decisions/0041): a link e-mailed at sign-up (and
 * on "Resend"), valid 7 days, kept as its SHA-256. The product works before it; only mail to
 * others that the account causes, and mail to it from others, waits for it (worker/email/member-mail.ts).
 * Following the link also proves owning the address as a password reset does (`emailVerified`).
 */
export const CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const confirmLink = (appUrl: string, token: string) => new URL(`/confirm-email/${token}`, appUrl).href;

/** Mails a fresh confirmation link to the account's own address (earlier links keep working until they expire). */
export async function mailConfirmationLink(db: Db, config: Config, userId: string, email: string): Promise<void> {
  const token = randomToken(32);
  await db
    .insert(emailConfirmations)
    .values({ tokenHash: await sha256Hex(token), userId, expiresAt: Date.now() + CONFIRMATION_TTL_MS });
  await sendEmail(db, config, {
    to: email,
    subject: "Confirm your e-mail address for Fleet Ops",
    text:
      `Confirm that this is your address: ${confirmLink(config.APP_URL, token)}\n\n` +
      `Until you do, Fleet Ops sends no e-mail to others on your behalf (invitations, assignments). ` +
      `The link works for 7 days. If you did not sign up for Fleet Ops, ignore this e-mail.`,
  });
}

/** Sign-up's link, sent after the answer (a slow provider never delays the sign-up). */
export function sendConfirmationAfterSignup(c: Context<AppEnv>, userId: string, email: string) {
  c.executionCtx.waitUntil(
    mailConfirmationLink(c.var.db, c.var.config, userId, email).catch((error) =>
      console.error("the confirmation e-mail failed:", safeError(error)),
    ),
  );
}

/** Marks the address confirmed (Google, a password reset, the link): mail held for it may go. */
export function markConfirmed(db: Db, userId: string) {
  return db
    .update(users)
    .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${Date.now()})`, emailVerified: true })
    .where(eq(users.id, userId));
}

/** Follows a confirmation link: 400 `confirmation_invalid` for an unknown or expired one. */
export async function confirmEmail(c: Context<AppEnv>, token: string): Promise<void> {
  const db = c.var.db;
  const row = await db
    .select({ userId: emailConfirmations.userId })
    .from(emailConfirmations)
    .where(and(eq(emailConfirmations.tokenHash, await sha256Hex(token)), gt(emailConfirmations.expiresAt, Date.now())))
    .get();
  if (!row)
    throw new ApiError(400, "confirmation_invalid", "This confirmation link is not valid or has expired", {
      token: ["Not valid or expired: ask for a new link"],
    });
  await db.batch([
    markConfirmed(db, row.userId),
    db.delete(emailConfirmations).where(eq(emailConfirmations.userId, row.userId)),
  ]);
  audit("email.confirmed", { userId: row.userId });
  // What waited for this address goes now, after the answer (the cron would also send it).
  c.executionCtx.waitUntil(
    releaseHeldMail(db, c.var.config).catch((error) => console.error("releasing held mail failed:", safeError(error))),
  );
}

/** Whether the account still has to confirm its address. */
export async function unconfirmed(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.emailConfirmedAt)))
    .get();
  return row !== undefined;
}
