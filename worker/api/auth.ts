import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { signInSchema, signUpSchema, verifyEmailSchema } from "../../shared/account/auth";
import type { MeResponse } from "../../shared/account/session";
import { decoyHash, verifyPassword } from "../auth/password";
import { requireStrongPassword } from "../auth/password-strength";
import { clientIp, LIMITS } from "../auth/rate-limit";
import { createSession, deviceOf, requireSession } from "../auth/session";
import { completeSignIn, startSession } from "../auth/complete-signin";
import { answerChallenge } from "../auth/totp-signin";
import { secondFactorSchema } from "../../shared/account/two-factor";
import { holdSigninAttempt, releaseSigninAttempt } from "../auth/signin-limits";
import { createUserWithPassword, findUserByEmail } from "../auth/users";
import { endSessions } from "../auth/end-sessions";
import { sendConfirmationAfterSignup } from "../auth/email-confirmation";
import { memberships, passwordCredentials, users, workspaces } from "../../db/schema";
import { flagsFor } from "../flags";
import { audit, auditRefusal, emailId } from "../lib/audit";
import { ApiError, unauthorized } from "../lib/errors";
import type { AppEnv } from "../types";
import { okAnswer, tokenAnswer } from "./route-declaration/answers";
import { z } from "zod";
import { meResponseSchema } from "../../shared/account/session";
import { declared, perNetwork, refusedWithEmail, validBody } from "./route-declaration/declare";

/** Sign-up, sign-in, e-mail check, sign-out and the viewer (docs/product.md section 7). */
export const authRoutes = new Hono<AppEnv>()
  .post(
    "/verify/email",
    declared({
      permission: "public",
      summary: "Whether an account exists for an e-mail",
      tag: "Auth",
      body: verifyEmailSchema,
      response: z.object({ exists: z.boolean() }),
      // This endpoint has to tell whether an account exists, so it is limited, per network only: a
      // per-e-mail limit would let strangers break the owner's login page (issue 23).
      limits: [perNetwork(LIMITS.verifyEmail, refusedWithEmail("verify_email.refused", verifyEmailSchema))],
    }),
    async (c) => {
      const { email } = c.req.valid("json");
      return c.json({ exists: (await findUserByEmail(c.var.db, email)) !== null });
    },
  )

  .post(
    "/signin",
    declared({ permission: "public", summary: "Sign in with e-mail and password", tag: "Auth", body: signInSchema }),
    async (c) => {
      const { email, password } = c.req.valid("json");
      const net = clientIp(c);
      const emailKey = await emailId(email);
      const user = await findUserByEmail(c.var.db, email);
      // Taken before the password is tried (worker/auth/signin-limits.ts), given back when it is right.
      const held = await holdSigninAttempt(c, emailKey, net, user?.id ?? null);
      const credential = user
        ? await c.var.db.select().from(passwordCredentials).where(eq(passwordCredentials.userId, user.id)).get()
        : undefined;
      // Always run the KDF, so an unknown e-mail takes as long as a wrong password.
      const ok = await verifyPassword(password, credential?.hash ?? (await decoyHash()));
      if (!user || !credential || !ok) {
        audit("signin.failed", {
          email: emailKey,
          ip: net,
          reason: !user ? "unknown_email" : !credential ? "no_password" : "wrong_password",
        });
        throw new ApiError(401, "invalid_credentials", "Wrong e-mail or password");
      }
      await releaseSigninAttempt(c, held);
      return c.json(await completeSignIn(c, user.id, "password"));
    },
  )

  // The second step of a sign-in with two-factor authentication on (worker/auth/totp-signin.ts).
  .post(
    "/signin/second-factor",
    declared({
      permission: "public",
      summary: "Second step of a sign-in with two-factor authentication",
      tag: "Auth",
      body: secondFactorSchema,
      response: tokenAnswer,
    }),
    async (c) => {
      const { challenge, code } = c.req.valid("json");
      const { userId, method } = await answerChallenge(c, challenge, code);
      return c.json({ token: await startSession(c, userId, `${method}+totp`) });
    },
  )

  .post(
    "/signup",
    declared({
      permission: "public",
      summary: "Create an account",
      tag: "Auth",
      body: signUpSchema,
      response: tokenAnswer,
      status: 201,
      limits: [
        perNetwork(LIMITS.signup, refusedWithEmail("signup.refused", signUpSchema)),
        // Per e-mail AND network: a stranger cannot keep an address from signing up.
        {
          limit: LIMITS.signupEmail,
          per: "e-mail and network",
          key: async (c) => `email:${await emailId(validBody(c, signUpSchema).email)}|ip:${clientIp(c)}`,
          refusedAudit: refusedWithEmail("signup.refused", signUpSchema),
        },
      ],
    }),
    async (c) => {
      const { email, password } = c.req.valid("json");
      const refused = auditRefusal("signup.refused", { email: await emailId(email), ip: clientIp(c) });
      await requireStrongPassword(password, [email]).catch(refused);
      const userId = await createUserWithPassword(c.var.db, email, password);
      if (!userId) {
        audit("signup.refused", { email: await emailId(email), ip: clientIp(c), reason: "email_taken" });
        throw new ApiError(409, "email_taken", "An account with this e-mail already exists", {
          email: ["An account with this e-mail already exists"],
        });
      }
      // The product works at once; the link confirms the address for mail to others (worker/auth/email-confirmation.ts).
      sendConfirmationAfterSignup(c, userId, email.toLowerCase());
      return c.json({ token: await createSession(c.var.db, userId, null, undefined, deviceOf(c)) }, 201);
    },
  )

  // Sign-out ends the whole sign-in: this token and every token derived from it (workspace switches).
  .post(
    "/signout",
    declared({ permission: "signed-in", summary: "End this sign-in", tag: "Auth", response: okAnswer }),
    requireSession,
    async (c) => {
      await endSessions(c, { signinId: c.var.session.signinId }, "signout");
      return c.json({ ok: true });
    },
  )

  // "Sign out everywhere": every session of the account, on every device.
  .post(
    "/signout/everywhere",
    declared({ permission: "signed-in", summary: "End every sign-in of the account", tag: "Auth" }),
    requireSession,
    async (c) => {
      const ended = await endSessions(c, { userId: c.var.session.userId }, "signout_everywhere");
      return c.json({ ok: true, ended });
    },
  )

  .get(
    "/me",
    declared({
      permission: "signed-in",
      summary: "The signed-in person, their workspaces and role",
      tag: "Auth",
      response: meResponseSchema,
    }),
    requireSession,
    async (c) => {
      const { db, session } = c.var;
      const viewer = await db
        .select({ id: users.id, email: users.email, confirmedAt: users.emailConfirmedAt })
        .from(users)
        .where(eq(users.id, session.userId))
        .get();
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
      const answer: MeResponse = {
        viewer: { id: viewer.id, email: viewer.email, emailConfirmed: viewer.confirmedAt !== null },
        workspace,
        workspaces: mine,
        role: workspace ? session.role : null,
        flags: await flagsFor(db, workspace?.id ?? null),
      };
      return c.json(answer);
    },
  );
