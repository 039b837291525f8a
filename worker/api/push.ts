import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/account/push";
import { requireSession, workspaceSession } from "../auth/session";
import { pushSubscriptions } from "../../db/schema";
import { webhookTargetProblem } from "../alerts/webhook-target";
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
 * POST and DELETE /api/push-subscriptions (docs/decisions/0047): this browser's push on or off,
 * for the session's member and workspace. One row per endpoint: subscribing again from another
 * session (a switch of workspace, another account on the same phone) moves it there. Only its own
 * member removes a subscription; anyone else's endpoint is a 404.
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
      const row = { endpoint, workspaceId, userId, p256dh: keys.p256dh, auth: keys.auth };
      await c.var.db
        .insert(pushSubscriptions)
        .values(row)
        .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { ...row, createdAt: Date.now() } });
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
