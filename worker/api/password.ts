import { and, eq, gt, isNull } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { changePasswordSchema, forgotPasswordSchema, resetPasswordSchema } from "../../shared/account/auth";
import { endSessions } from "../auth/end-sessions";
import { hashPassword, verifyPassword } from "../auth/password";
import { requireStrongPassword } from "../auth/password-strength";
import { createSession, requireSession, signInOf } from "../auth/session";
import { audit, auditRefusal, emailId } from "../lib/audit";
import { clientIp, countPast, LIMITS } from "../auth/rate-limit";
import { isKnownNetwork } from "../auth/signin-limits";
import { sendAccountNotice } from "../auth/notices";
import type { Db } from "../../db/client";
import { findUserByEmail } from "../auth/users";
import { passwordCredentials, passwordResetTokens, recoveryCodes, totpCredentials, users } from "../../db/schema";
import { sendEmail } from "../email/email";
import { markConfirmed } from "../auth/email-confirmation";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { safeError } from "../lib/safe-error";
import type { AppEnv } from "../types";
import { tokenAnswer } from "./route-declaration/answers";
import { declared, perNetwork, perUser, refusedWithEmail, validBody } from "./route-declaration/declare";

export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/**
 * Whether a reset e-mail goes out: always when asked from a network the owner signed in from;
 * from elsewhere, a few an hour (past that the owner's inbox is not flooded, and nobody is refused).
 */
async function mayMail(c: Context<AppEnv>, userId: string, emailKey: string, net: string): Promise<boolean> {
  if (await isKnownNetwork(c, userId, net)) return true;
  if (!(await countPast(c, LIMITS.forgotMailsPerEmail, `email:${emailKey}`))) return true;
  audit("password.reset_mail_suppressed", { userId, ip: net });
  return false;
}

async function mailResetLink(c: Context<AppEnv>, user: { id: string; email: string }) {
  const token = randomToken(32);
  await c.var.db
    .insert(passwordResetTokens)
    .values({ tokenHash: await sha256Hex(token), userId: user.id, expiresAt: Date.now() + RESET_TOKEN_TTL_MS });
  const link = new URL("/reset-password", c.var.config.APP_URL);
  link.search = new URLSearchParams({ token, uid: user.id }).toString();
  const sending = sendEmail(c.var.db, c.var.config, {
    to: user.email,
    subject: "Reset your Fleet Ops password",
    text: `Someone asked to reset the password of your Fleet Ops account.\n\nSet a new one here (the link works once, for one hour):\n${link.href}\n\nIf it was not you, ignore this e-mail.`,
  });
  c.executionCtx.waitUntil(sending.catch((error) => console.error("reset e-mail failed:", safeError(error))));
}

/** A reset or a change makes every reset link still out there useless (they named the old password's owner). */
function revokeResetLinks(db: Db, userId: string, now: number) {
  return db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** Password recovery: a single-use link valid for one hour, sent by e-mail. */
export const passwordRoutes = new Hono<AppEnv>()
  .post(
    "/forgot",
    declared({
      permission: "public",
      summary: "Send a password reset link",
      tag: "Auth",
      body: forgotPasswordSchema,
      // Refusals are per network (and per e-mail from one network): a stranger slows only themselves.
      limits: [
        perNetwork(LIMITS.forgot, refusedWithEmail("password.reset_refused", forgotPasswordSchema)),
        {
          limit: LIMITS.forgotPerEmailAndNetwork,
          per: "e-mail and network",
          key: async (c) => `email:${await emailId(validBody(c, forgotPasswordSchema).email)}|ip:${clientIp(c)}`,
          refusedAudit: refusedWithEmail("password.reset_refused", forgotPasswordSchema),
        },
      ],
    }),
    async (c) => {
      const { email } = c.req.valid("json");
      const net = clientIp(c);
      const emailKey = await emailId(email);
      const user = await findUserByEmail(c.var.db, email);
      audit("password.reset_requested", { userId: user?.id ?? null, email: emailKey, ip: net, known: user !== null });
      if (user && (await mayMail(c, user.id, emailKey, net))) await mailResetLink(c, user);
      // The same answer whether or not the address has an account, or a mail was sent.
      return c.json({ ok: true });
    },
  )
  .post(
    "/reset",
    declared({
      permission: "public",
      summary: "Set a new password with a reset link's token",
      tag: "Auth",
      body: resetPasswordSchema,
    }),
    async (c) => {
      const { token, user, password } = c.req.valid("json");
      const db = c.var.db;
      // Before the link is spent, so a refused password leaves it usable for a better one.
      const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, user)).get();
      await requireStrongPassword(password, owner ? [owner.email] : []);
      const tokenHash = await sha256Hex(token);
      const now = Date.now();
      // Claim the token in one guarded statement, so two requests racing with the same link cannot
      // both get through: single use, unexpired, and issued to this user.
      const claimed = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            eq(passwordResetTokens.userId, user),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResetTokens.userId })
        .get();
      if (!claimed) {
        audit("password.reset_refused", { userId: user, reason: "reset_token_expired" });
        throw new ApiError(400, "reset_token_expired", "Your reset password token has expired");
      }
      const hash = await hashPassword(password);
      // An address nobody had proven before: the second factors its earlier holder set go (issue 34).
      const verified =
        (await db.select({ v: users.emailVerified }).from(users).where(eq(users.id, user)).get())?.v === true;
      const clearFactors = verified
        ? []
        : [
            db.delete(totpCredentials).where(eq(totpCredentials.userId, user)),
            db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user)),
          ];
      await db.batch([
        revokeResetLinks(db, user, now),
        ...clearFactors,
        db
          .insert(passwordCredentials)
          .values({ userId: user, hash })
          .onConflictDoUpdate({ target: passwordCredentials.userId, set: { hash, updatedAt: now } }),
        // Following the e-mailed link proves owning the address (and confirms it for mail, issue 39).
        markConfirmed(db, user),
      ]);
      // Whoever knew the old password is signed out everywhere, their open sockets closed.
      await endSessions(c, { userId: user }, "password_reset");
      audit("password.reset_completed", { userId: user });
      await sendAccountNotice(c, user, "password_reset");
      return c.json({ ok: true });
    },
  )

  // Changing the password while signed in: the current one proves it is the owner; every session
  // ends (ASVS V3.3.3), and this device gets a fresh one so it stays signed in.
  .post(
    "/change",
    requireSession,
    declared({
      permission: "signed-in",
      summary: "Change the password",
      tag: "Account",
      body: changePasswordSchema,
      response: tokenAnswer,
      limits: [
        perUser(LIMITS.passwordChange, {
          event: "password.change_refused",
          fields: (c) => ({ userId: c.var.session.userId, ip: clientIp(c) }),
        }),
      ],
    }),
    async (c) => {
      const { currentPassword, password } = c.req.valid("json");
      const { db, session } = c.var;
      const refused = auditRefusal("password.change_refused", { userId: session.userId, ip: clientIp(c) });
      const credential = await db
        .select()
        .from(passwordCredentials)
        .where(eq(passwordCredentials.userId, session.userId))
        .get();
      if (!credential || !(await verifyPassword(currentPassword, credential.hash))) {
        refused(new ApiError(400, "invalid_credentials", "Wrong password", { currentPassword: ["Wrong password"] }));
      }
      const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
      await requireStrongPassword(password, owner ? [owner.email] : []).catch(refused);
      const hash = await hashPassword(password);
      const now = Date.now();
      await db.batch([
        db
          .update(passwordCredentials)
          .set({ hash, updatedAt: now })
          .where(eq(passwordCredentials.userId, session.userId)),
        revokeResetLinks(db, session.userId, now),
      ]);
      const from = await signInOf(db, session.tokenHash);
      await endSessions(c, { userId: session.userId }, "password_changed");
      audit("password.changed", { userId: session.userId });
      await sendAccountNotice(c, session.userId, "password_changed");
      // This device stays signed in with a fresh token (same device details, a new sign-in).
      const token = await createSession(db, session.userId, session.workspaceId, undefined, {
        network: from.network ?? null,
        userAgent: from.userAgent ?? null,
      });
      return c.json({ ok: true, token });
    },
  );
