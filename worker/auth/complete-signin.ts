import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { sessions } from "../../db/schema";
import { audit } from "../lib/audit";
import type { AppEnv } from "../types";
import { sendAccountNotice } from "./notices";
import { createSession, deviceOf, type Device } from "./session";
import { secondFactorChallenge } from "./totp-signin";
import { firstWorkspaceOf } from "./users";
import type { SignInAnswer } from "../../shared/account/two-factor";

/** Has this account signed in from this browser on this network before? */
async function isKnownDevice(
  c: Context<AppEnv>,
  userId: string,
  device: Device,
): Promise<{ known: boolean; first: boolean }> {
  const seen = await c.var.db
    .select({ network: sessions.network, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .limit(200)
    .all();
  return {
    known: seen.some((s) => s.network === device.network && s.userAgent === device.userAgent),
    first: seen.length === 0,
  };
}

/**
 * Every first factor that succeeded (password, Google) ends here: a second factor is asked when
 * the account has one (worker/auth/totp-signin.ts), otherwise the session starts, on the audit
 * trail, with an e-mail when the device is new to the account.
 */
export async function completeSignIn(
  c: Context<AppEnv>,
  userId: string,
  method: "password" | "google",
): Promise<SignInAnswer> {
  const challenge = await secondFactorChallenge(c, userId, method);
  if (challenge) return { secondFactor: { challenge } };
  return { token: await startSession(c, userId, method) };
}

/** The session itself, once every factor the account has was given. */
export async function startSession(c: Context<AppEnv>, userId: string, method: string): Promise<string> {
  const device = deviceOf(c);
  const { known, first } = await isKnownDevice(c, userId, device);
  const token = await createSession(c.var.db, userId, await firstWorkspaceOf(c.var.db, userId), undefined, device);
  audit("signin.succeeded", { userId, ip: device.network, method, newDevice: !known });
  if (!known && !first) await sendAccountNotice(c, userId, "new_device", device);
  return token;
}
