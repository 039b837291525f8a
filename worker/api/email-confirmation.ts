import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { confirmEmailSchema } from "../../shared/account/auth";
import { users } from "../../db/schema";
import { confirmEmail, mailConfirmationLink, unconfirmed } from "../auth/email-confirmation";
import { LIMITS } from "../auth/rate-limit";
import { requireSession } from "../auth/session";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { okAnswer } from "./route-declaration/answers";
import { declared, perUser } from "./route-declaration/declare";

/**
 * Confirming the account's address (issue 39): the link's page posts its token here (no session
 * needed: the token is the credential); a signed-in person who has not confirmed asks for a new link.
 */
export const emailConfirmationRoutes = new Hono<AppEnv>()
  .post(
    "/confirm",
    declared({
      permission: "public",
      summary: "Confirm the account's e-mail address with the link's token",
      tag: "Auth",
      body: confirmEmailSchema,
      response: okAnswer,
    }),
    async (c) => {
      await confirmEmail(c, c.req.valid("json").token);
      return c.json({ ok: true });
    },
  )
  .post(
    "/confirm/resend",
    declared({
      permission: "signed-in",
      summary: "E-mail a new confirmation link",
      tag: "Auth",
      response: okAnswer,
      limits: [perUser(LIMITS.confirmationLinks)],
    }),
    requireSession,
    async (c) => {
      const { db, config, session } = c.var;
      if (!(await unconfirmed(db, session.userId)))
        throw new ApiError(409, "already_confirmed", "Your e-mail address is already confirmed");
      const me = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
      if (me) await mailConfirmationLink(db, config, session.userId, me.email);
      return c.json({ ok: true });
    },
  );
