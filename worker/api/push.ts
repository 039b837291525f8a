import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import { Hono } from "hono";
import { pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/account/push";
import { requireSession, workspaceSession } from "../auth/session";
import { pushSubscriptions } from "../../db/schema";
import { webhookTargetProblem } from "../alerts/webhook-target";
import { PUSH_SUBSCRIPTIONS_PER_PERSON } from "../push/send-push";
import { badRequest, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { pushPublicKeySchema } from "../../shared/account/push";
import { declared } from "./route-declaration/declare";

/** GET /api/push/public-key: the VAPID public key a browser subscribes with (DESIGN.md "The app on a phone"). */
export const pushKeyRoutes = new Hono<AppEnv>().get(
  "/public-key",
  declared({
    permission: "public",
    summary: "The VAPID key browsers subscribe with",
    tag: "Push",
    response: pushPublicKeySchema,
  }),
  (c) => c.json({ key: c.var.config.VAPID_PUBLIC_KEY }),
);

/**
 * POST and DELETE /api/push-subscriptions (docs/decisions/0047, 0072): this browser's push on or
 * off, for the session's member and workspace, and tied to the session's sign-in (it ends with
 * it). One row per endpoint: subscribing again from another session (a switch of workspace,
 * another account on the same phone) moves it there. At most PUSH_SUBSCRIPTIONS_PER_PERSON per
 * person: a new one replaces their oldest. Only its own member removes a subscription; anyone
 * else's endpoint is a 404.
 */
export const pushSubscriptionRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/",
    declared({
      permission: "person.own",
      summary: "Turn push on for this browser",
      tag: "Push",
      body: pushSubscriptionSchema,
      response: pushUnsubscribeSchema,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const { endpoint, keys } = c.req.valid("json");
      const problem = webhookTargetProblem(endpoint, c.var.config.ENVIRONMENT);
      const pushProblem = problem?.replace("webhook URL", "push endpoint");
      if (pushProblem) throw badRequest(`endpoint: ${pushProblem}`, { endpoint: [pushProblem] });
      const { signinId } = c.var.session;
      const row = { endpoint, workspaceId, userId, signinId, p256dh: keys.p256dh, auth: keys.auth };
      const db = c.var.db;
      await db.batch([
        db
          .insert(pushSubscriptions)
          .values(row)
          .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...row, createdAt: Date.now() } }),
        // Past the cap the person's oldest go, in the same transaction: parallel calls cannot pass it.
        db.delete(pushSubscriptions).where(
          and(
            eq(pushSubscriptions.userId, userId),
            notInArray(
              pushSubscriptions.endpoint,
              db
                .select({ endpoint: pushSubscriptions.endpoint })
                .from(pushSubscriptions)
                .where(eq(pushSubscriptions.userId, userId))
                // rowid: the order of first subscription, where two share a millisecond
                .orderBy(desc(pushSubscriptions.createdAt), desc(sql`rowid`))
                .limit(PUSH_SUBSCRIPTIONS_PER_PERSON),
            ),
          ),
        ),
      ]);
      return c.json({ endpoint }, 201);
    },
  )
  .delete(
    "/",
    declared({
      permission: "person.own",
      summary: "Turn push off for this browser",
      tag: "Push",
      body: pushUnsubscribeSchema,
      status: 204,
    }),
    async (c) => {
      const { userId } = workspaceSession(c.var.session);
      const { endpoint } = c.req.valid("json");
      const gone = await c.var.db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
        .returning({ endpoint: pushSubscriptions.endpoint });
      if (gone.length === 0) throw notFound("No push subscription of yours at this endpoint");
      return c.body(null, 204);
    },
  );
