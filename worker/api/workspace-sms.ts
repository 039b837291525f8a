import { Hono } from "hono";
import { smsAccountPutSchema, smsAccountSchema } from "../../shared/jobs/sms-account";
import { requireSession, workspaceSession } from "../auth/session";
import { removeTwilioAccount, saveTwilioAccount, smsAccountView } from "../email/sms-account";
import { audit } from "../lib/audit";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * GET/PUT/DELETE /api/workspace/sms: the workspace's own Twilio account, through which its
 * customers are texted (issue 53, docs/decisions/0093). Owners and admins only, as the webhook
 * secret is: the account spends the workspace's money. The auth token is taken, sealed and never
 * answered again: GET shows only that an account is kept, its SID and the sender.
 */
export const workspaceSmsRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/sms",
    declared({
      permission: "workspace.configure",
      summary: "The workspace's Twilio account for texts to customers (never its token)",
      tag: "Workspaces",
      response: smsAccountSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      return c.json(await smsAccountView(c.var.db, workspaceId), 200, NO_STORE);
    },
  )
  .put(
    "/sms",
    declared({
      permission: "workspace.configure",
      summary: "Set the workspace's Twilio account (Account SID, auth token, a number or Messaging Service SID)",
      tag: "Workspaces",
      body: smsAccountPutSchema,
      response: smsAccountSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { accountSid, authToken, from } = c.req.valid("json");
      await saveTwilioAccount(c.var.db, c.var.config.WEBHOOK_SECRET_KEY, workspaceId, {
        accountSid,
        authToken,
        sender: from,
      });
      audit("customer_sms.account_set", { workspaceId, by: c.var.session.userId, accountSid });
      return c.json(await smsAccountView(c.var.db, workspaceId), 200, NO_STORE);
    },
  )
  .delete(
    "/sms",
    declared({
      permission: "workspace.configure",
      summary: "Remove the workspace's Twilio account: its customers are no longer texted",
      tag: "Workspaces",
      response: smsAccountSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      if (await removeTwilioAccount(c.var.db, workspaceId))
        audit("customer_sms.account_removed", { workspaceId, by: c.var.session.userId });
      return c.json(await smsAccountView(c.var.db, workspaceId), 200, NO_STORE);
    },
  );
