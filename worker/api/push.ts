import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { pushSubscriptionSchema, pushUnsubscribeSchema } from "../../shared/push";
import { requireSession, workspaceSession } from "../auth/session";
import { pushSubscriptions } from "../../db/schema";
import { webhookTargetProblem } from "../alerts/webhook-target";
import { badRequest, notFound } from "../lib/errors";
import { body } from "../lib/validate";
import type { AppEnv } from "../types";

/** GET /api/push/public-key: the VAPID public key a browser subscribes with (DESIGN.md "The app on a phone"). */
export const pushKeyRoutes = new Hono<AppEnv>().get("/public-key", (c) =>
  c.json({ key: c.var.config.VAPID_PUBLIC_KEY }),
);

/**
 * POST and DELETE /api/push-subscriptions (docs/decisions/0047): this browser's push on or off,
 * for the session's member and workspace. One row per endpoint: subscribing again from another
 * session (a switch of workspace, another account on the same phone) moves it there. Only its own
 * member removes a subscription; anyone else's endpoint is a 404.
 */
export const pushSubscriptionRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/", body(pushSubscriptionSchema), async (c) => {
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
  })
  .delete("/", body(pushUnsubscribeSchema), async (c) => {
    const { userId } = workspaceSession(c.var.session);
    const { endpoint } = c.req.valid("json");
    const gone = await c.var.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
      .returning({ endpoint: pushSubscriptions.endpoint });
    if (gone.length === 0) throw notFound("No push subscription of yours at this endpoint");
    return c.body(null, 204);
  });
