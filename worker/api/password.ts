import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { Hono } from "hono";
import { changePasswordSchema, forgotPasswordSchema, resetPasswordSchema } from "../../shared/auth";
import { endSessions } from "../auth/end-sessions";
import { hashPassword, verifyPassword } from "../auth/password";
import { requireStrongPassword } from "../auth/password-strength";
import { createSession, requireSession } from "../auth/session";
import { audit } from "../lib/audit";
import { clientIp, LIMITS, rateLimit } from "../auth/rate-limit";
import { findUserByEmail } from "../auth/users";
import { emailOutbox, passwordCredentials, passwordResetTokens, users } from "../db/schema";
import { sendEmail } from "../email/email";
import { randomToken, sha256Hex } from "../lib/crypto";
import { developmentOnly } from "../lib/development-only";
import { ApiError, notFound } from "../lib/errors";
import { body, zod } from "../lib/validate";
import type { AppEnv } from "../types";
import { z } from "zod";

export const RESET_TOKEN_TTL_MS = 60 * 60_000;

/** Password recovery: a single-use link valid for one hour, sent by e-mail. */
export const passwordRoutes = new Hono<AppEnv>()
  .post("/forgot", body(forgotPasswordSchema), async (c) => {
    const { email } = c.req.valid("json");
    await rateLimit(c, LIMITS.forgot, [`ip:${clientIp(c)}`]);
    await rateLimit(c, LIMITS.forgotPerEmail, [`email:${email}`]);
    const user = await findUserByEmail(c.var.db, email);
    audit("password.reset_requested", { userId: user?.id ?? null, email, ip: clientIp(c), known: user !== null });
    if (user) {
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
      c.executionCtx.waitUntil(sending.catch((error) => console.error("reset e-mail failed:", error)));
    }
    // The same answer whether or not the address has an account.
    return c.json({ ok: true });
  })
  .post("/reset", body(resetPasswordSchema), async (c) => {
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
    if (!claimed) throw new ApiError(400, "reset_token_expired", "Your reset password token has expired");
    const hash = await hashPassword(password);
    await db.batch([
      db
        .insert(passwordCredentials)
        .values({ userId: user, hash })
        .onConflictDoUpdate({ target: passwordCredentials.userId, set: { hash, updatedAt: now } }),
      // Following the e-mailed link proves owning the address.
      db.update(users).set({ emailVerified: true }).where(eq(users.id, user)),
    ]);
    // Whoever knew the old password is signed out everywhere, their open sockets closed.
    await endSessions(c, { userId: user }, "password_reset");
    audit("password.reset_completed", { userId: user });
    return c.json({ ok: true });
  })

  // Changing the password while signed in: the current one proves it is the owner; every session
  // ends (ASVS V3.3.3), and this device gets a fresh one so it stays signed in.
  .post("/change", requireSession, body(changePasswordSchema), async (c) => {
    const { currentPassword, password } = c.req.valid("json");
    const { db, session } = c.var;
    await rateLimit(c, LIMITS.passwordChange, [`user:${session.userId}`]);
    const credential = await db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, session.userId)).get();
    if (!credential || !(await verifyPassword(currentPassword, credential.hash))) {
      throw new ApiError(400, "invalid_credentials", "Wrong password", { currentPassword: ["Wrong password"] });
    }
    const owner = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
    await requireStrongPassword(password, owner ? [owner.email] : []);
    const hash = await hashPassword(password);
    await db.update(passwordCredentials).set({ hash, updatedAt: Date.now() }).where(eq(passwordCredentials.userId, session.userId));
    await endSessions(c, { userId: session.userId }, "password_changed");
    audit("password.changed", { userId: session.userId });
    return c.json({ ok: true, token: await createSession(db, session.userId, session.workspaceId) });
  });

/** Development and tests only: the latest e-mail sent to an address (404 in production). */
export const outboxRoutes = new Hono<AppEnv>().get("/outbox", developmentOnly, zod("query", z.object({ to: z.string().min(1) })), async (c) => {
  const { to } = c.req.valid("query");
  const mail = await c.var.db.select().from(emailOutbox).where(eq(emailOutbox.to, to.toLowerCase())).orderBy(desc(emailOutbox.id)).get();
  if (!mail) throw notFound("No e-mail to this address");
  return c.json(mail);
});
