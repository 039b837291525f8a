import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { confirmEmailSchema } from "../../shared/auth";
import { users } from "../../db/schema";
import { confirmEmail, mailConfirmationLink, unconfirmed } from "../auth/email-confirmation";
import { LIMITS, rateLimit } from "../auth/rate-limit";
import { requireSession } from "../auth/session";
import { ApiError } from "../lib/errors";
import { body } from "../lib/validate";
import type { AppEnv } from "../types";

/**
 * Confirming the account's address (issue 39): the link's page posts its token here (no session
 * needed: the token is the credential); a signed-in person who has not confirmed asks for a new link.
 */
export const emailConfirmationRoutes = new Hono<AppEnv>()
  .post("/confirm", body(confirmEmailSchema), async (c) => {
    await confirmEmail(c, c.req.valid("json").token);
    return c.json({ ok: true });
  })
  .post("/confirm/resend", requireSession, async (c) => {
    const { db, config, session } = c.var;
    if (!(await unconfirmed(db, session.userId)))
      throw new ApiError(409, "already_confirmed", "Your e-mail address is already confirmed");
    await rateLimit(c, LIMITS.confirmationLinks, [`user:${session.userId}`]);
    const me = await db.select({ email: users.email }).from(users).where(eq(users.id, session.userId)).get();
    if (me) await mailConfirmationLink(db, config, session.userId, me.email);
    return c.json({ ok: true });
  });
