import { Hono } from "hono";
import { requireSession, workspaceSession } from "../auth/session";
import { rotateWebhookSecret, webhookSecret } from "../alerts/webhook-secret";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * GET/POST /api/webhook-secret(/rotate): the workspace's webhook signing secret
 * (docs/decisions/0024), shown and rotated only to owners and admins (worker/api/route-rules.ts).
 */
export const webhookSecretRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({ permission: "workspace.configure", summary: "The webhook signing secret", tag: "Alerts" }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await webhookSecret(c.var.db, c.var.config.WEBHOOK_SECRET_KEY, workspaceId), 200, {
        "Cache-Control": "no-store",
      });
    },
  )
  .post(
    "/rotate",
    declared({ permission: "workspace.configure", summary: "Rotate the webhook signing secret", tag: "Alerts" }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await rotateWebhookSecret(c.var.db, c.var.config.WEBHOOK_SECRET_KEY, workspaceId), 200, {
        "Cache-Control": "no-store",
      });
    },
  );
