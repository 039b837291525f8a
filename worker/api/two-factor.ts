import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import type { Context } from "hono";
import { Hono } from "hono";
import {
  confirmPasswordSchema,
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  type TwoFactorEnabled,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from "../../shared/account/two-factor";
import { verifyPassword } from "../auth/password";
import { sendAccountNotice } from "../auth/notices";
import { clientIp, LIMITS } from "../auth/rate-limit";
import { requireSession } from "../auth/session";
import { looksLikeTotp, newRecoveryCodes, newTotpSecret, normalRecoveryCode, totpUri } from "../auth/totp";
import { useRecoveryCode, useTotpCode } from "../auth/totp-signin";
import { endSessions } from "../auth/end-sessions";
import { sealTotpSecret } from "../auth/totp-secret";
import { passwordCredentials, recoveryCodes, totpCredentials, users } from "../../db/schema";
import { audit, auditRefusal } from "../lib/audit";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared, perUser } from "./route-declaration/declare";

/**
 * Settings -> Security: TOTP two-factor authentication (ASVS V2.7/V2.8). Turning it on takes the
 * password (setup hands out a new key), then a code from the app (enable: the app holds the key),
 * and answers ten recovery codes once. Turning it off takes the password and a code (the app's or
 * a recovery code). Each change is e-mailed and ends the account's other sessions.
 */
export const twoFactorRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({ permission: "signed-in", summary: "Two-factor authentication status", tag: "Account" }),
    async (c) => {
      const { db, session } = c.var;
      const on = await db
        .select({ userId: totpCredentials.userId })
        .from(totpCredentials)
        .where(and(eq(totpCredentials.userId, session.userId), isNotNull(totpCredentials.enabledAt)))
        .get();
      const left = await db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, session.userId), isNull(recoveryCodes.usedAt)))
        .get();
      return c.json<TwoFactorStatus>({ enabled: on !== undefined, recoveryCodesLeft: on ? (left?.n ?? 0) : 0 });
    },
  )

  .post(
    "/setup",
    declared({
      permission: "signed-in",
      summary: "Start setting up two-factor authentication",
      tag: "Account",
      body: confirmPasswordSchema,
      limits: [
        perUser(LIMITS.passwordChange, {
          event: "password.change_refused",
          fields: (c) => ({ userId: c.var.session.userId, ip: clientIp(c), via: "two_factor" }),
        }),
      ],
    }),
    async (c) => {
      const { db, session } = c.var;
      await requirePassword(c, c.req.valid("json").password);
      const current = await db.select().from(totpCredentials).where(eq(totpCredentials.userId, session.userId)).get();
      if (current?.enabledAt)
        throw new ApiError(
          409,
          "two_factor_on",
          "Two-factor authentication is already on. Turn it off first to use another app.",
        );
      const secret = newTotpSecret();
      // stored sealed (worker/auth/totp-secret.ts): a copy of D1 alone makes no codes
      const sealed = await sealTotpSecret(c.var.config.WEBHOOK_SECRET_KEY, session.userId, secret);
      await db
        .insert(totpCredentials)
        .values({ userId: session.userId, secret: sealed })
        .onConflictDoUpdate({
          target: totpCredentials.userId,
          set: { secret: sealed, lastStep: 0, createdAt: Date.now() },
        });
      const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
      return c.json<TwoFactorSetup>({ secret, uri: totpUri(secret, owner?.email ?? session.userId) });
    },
  )

  .post(
    "/enable",
    declared({
      permission: "signed-in",
      summary: "Turn two-factor authentication on",
      tag: "Account",
      body: enableTwoFactorSchema,
    }),
    async (c) => {
      const { db, session } = c.var;
      const pending = await db.select().from(totpCredentials).where(eq(totpCredentials.userId, session.userId)).get();
      if (!pending || pending.enabledAt)
        throw new ApiError(409, "no_setup", "Start the setup again: no key is waiting for a code.");
      if (!(await useTotpCode(c, session.userId, c.req.valid("json").code))) {
        throw new ApiError(400, "invalid_code", "Wrong code", {
          code: ["Wrong code. Check the time on your phone and try the next one."],
        });
      }
      const codes = newRecoveryCodes();
      const hashes = await Promise.all(codes.map((code) => sha256Hex(normalRecoveryCode(code))));
      await db.batch([
        db.update(totpCredentials).set({ enabledAt: Date.now() }).where(eq(totpCredentials.userId, session.userId)),
        db.delete(recoveryCodes).where(eq(recoveryCodes.userId, session.userId)),
        db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId: session.userId, codeHash }))),
      ]);
      audit("totp.enabled", { userId: session.userId });
      // any change of a factor ends the account's other sessions (issue 34); this one goes on
      await endSessions(c, { userId: session.userId, exceptSigninId: session.signinId }, "two_factor_changed");
      await sendAccountNotice(c, session.userId, "two_factor_enabled");
      return c.json<TwoFactorEnabled>({ recoveryCodes: codes });
    },
  )

  // Off takes the password AND the second factor itself (issue 34): a stolen session plus a
  // phished password is not enough to remove it.
  .post(
    "/disable",
    declared({
      permission: "signed-in",
      summary: "Turn two-factor authentication off",
      tag: "Account",
      body: disableTwoFactorSchema,
      limits: [
        perUser(LIMITS.passwordChange, {
          event: "password.change_refused",
          fields: (c) => ({ userId: c.var.session.userId, ip: clientIp(c), via: "two_factor" }),
        }),
      ],
    }),
    async (c) => {
      const { db, session } = c.var;
      const { password, code } = c.req.valid("json");
      await requirePassword(c, password);
      if (!(await secondFactorHolds(c, session.userId, code))) {
        audit("signin.second_factor_failed", { userId: session.userId, via: "two_factor_disable" });
        throw new ApiError(400, "invalid_code", "Wrong code", {
          code: ["Wrong code: enter one from your authenticator app or a recovery code"],
        });
      }
      await endSessions(c, { userId: session.userId, exceptSigninId: session.signinId }, "two_factor_changed");
      await db.batch([
        db.delete(totpCredentials).where(eq(totpCredentials.userId, session.userId)),
        db.delete(recoveryCodes).where(eq(recoveryCodes.userId, session.userId)),
      ]);
      audit("totp.disabled", { userId: session.userId });
      await sendAccountNotice(c, session.userId, "two_factor_disabled");
      return c.json({ ok: true });
    },
  );

/** A code from the app or an unused recovery code of this account (each limited like at sign-in). */
export async function secondFactorHolds(c: Context<AppEnv>, userId: string, code: string): Promise<boolean> {
  return looksLikeTotp(code) ? useTotpCode(c, userId, code) : useRecoveryCode(c, userId, code);
}

/** The signed-in user's password (its route spends the password-change budget: it is a guess like any other). */
async function requirePassword(c: Context<AppEnv>, password: string): Promise<void> {
  const { db, session } = c.var;
  const refused = auditRefusal("password.change_refused", {
    userId: session.userId,
    ip: clientIp(c),
    via: "two_factor",
  });
  const credential = await db
    .select()
    .from(passwordCredentials)
    .where(eq(passwordCredentials.userId, session.userId))
    .get();
  if (!credential) {
    refused(
      new ApiError(400, "no_password", "Set a password first (Log in, then Forgot password)", {
        password: ["This account signs in with Google only: set a password first"],
      }),
    );
  }
  if (!(await verifyPassword(password, credential!.hash)))
    refused(new ApiError(400, "invalid_credentials", "Wrong password", { password: ["Wrong password"] }));
}
