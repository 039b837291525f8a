import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { signInSchema, signUpSchema, verifyEmailSchema } from "../../shared/auth";
import type { MeResponse } from "../../shared/session";
import { decoyHash, verifyPassword } from "../auth/password";
import { requireStrongPassword } from "../auth/password-strength";
import { clientIp, countFailure, LIMITS, rateLimit, refuseWhenSpent } from "../auth/rate-limit";
import { createSession, requireSession } from "../auth/session";
import { createUserWithPassword, findUserByEmail, firstWorkspaceOf } from "../auth/users";
import { endSessions } from "../auth/end-sessions";
import { memberships, passwordCredentials, users, workspaces } from "../db/schema";
import { flagsFor } from "../flags";
import { audit } from "../lib/audit";
import { ApiError, unauthorized } from "../lib/errors";
import { body } from "../lib/validate";
import type { AppEnv } from "../types";

/** Sign-up, sign-in, e-mail check, sign-out and the viewer (SPEC.md section 7). */
export const authRoutes = new Hono<AppEnv>()
  .post("/verify/email", body(verifyEmailSchema), async (c) => {
    const { email } = c.req.valid("json");
    // This endpoint has to tell whether an account exists, so its limit is the strictest.
    await rateLimit(c, LIMITS.verifyEmail, [`ip:${clientIp(c)}`]);
    await rateLimit(c, LIMITS.verifyEmailPerEmail, [`email:${email}`]);
    return c.json({ exists: (await findUserByEmail(c.var.db, email)) !== null });
  })

  .post("/signin", body(signInSchema), async (c) => {
    const { email, password } = c.req.valid("json");
    const net = clientIp(c);
    // Spent budgets refuse before the password is even tried; only failures count against them.
    const budgets = [
      [LIMITS.signinFailures, `email:${email}|ip:${net}`],
      [LIMITS.signinAddressFailures, `ip:${net}`],
      [LIMITS.signinGlobalFailures, "all"],
    ] as const;
    try {
      for (const [limit, key] of budgets) await refuseWhenSpent(c, limit, key);
    } catch (error) {
      audit("signin.locked_out", { email, ip: net });
      throw error;
    }
    const user = await findUserByEmail(c.var.db, email);
    const credential = user
      ? await c.var.db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id)).get()
      : undefined;
    // Always run the KDF, so an unknown e-mail takes as long as a wrong password.
    const ok = await verifyPassword(password, credential?.hash ?? (await decoyHash()));
    if (!user || !credential || !ok) {
      for (const [limit, key] of budgets) await countFailure(c, limit, key);
      audit("signin.failed", { email, ip: net, reason: !user ? "unknown_email" : !credential ? "no_password" : "wrong_password" });
      throw new ApiError(401, "invalid_credentials", "Wrong e-mail or password");
    }
    audit("signin.succeeded", { userId: user.id, ip: net, method: "password" });
    return c.json({ token: await createSession(c.var.db, user.id, await firstWorkspaceOf(c.var.db, user.id)) });
  })

  .post("/signup", body(signUpSchema), async (c) => {
    const { email, password } = c.req.valid("json");
    await rateLimit(c, LIMITS.signup, [`ip:${clientIp(c)}`]);
    await rateLimit(c, LIMITS.signupEmail, [`email:${email}`]);
    await requireStrongPassword(password, [email]);
    const userId = await createUserWithPassword(c.var.db, email, password);
    if (!userId) {
      throw new ApiError(409, "email_taken", "An account with this e-mail already exists", {
        email: ["An account with this e-mail already exists"],
      });
    }
    return c.json({ token: await createSession(c.var.db, userId, null) }, 201);
  })

  // Sign-out ends the whole sign-in: this token and every token derived from it (workspace switches).
  .post("/signout", requireSession, async (c) => {
    await endSessions(c, { signinId: c.var.session.signinId }, "signout");
    return c.json({ ok: true });
  })

  // "Sign out everywhere": every session of the account, on every device.
  .post("/signout/everywhere", requireSession, async (c) => {
    const ended = await endSessions(c, { userId: c.var.session.userId }, "signout_everywhere");
    return c.json({ ok: true, ended });
  })

  .get("/me", requireSession, async (c) => {
    const { db, session } = c.var;
    const viewer = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, session.userId)).get();
    if (!viewer) throw unauthorized();
    const mine = await db
      .select({ id: workspaces.id, name: workspaces.name })
      .from(memberships)
      .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
      .where(eq(memberships.userId, session.userId))
      .orderBy(workspaces.name)
      .all();
    // A session can outlive its membership; then it names no workspace.
    const workspace = mine.find((w) => w.id === session.workspaceId) ?? null;
    const answer: MeResponse = { viewer, workspace, workspaces: mine, role: workspace ? session.role : null, flags: await flagsFor(db, workspace?.id ?? null) };
    return c.json(answer);
  });
