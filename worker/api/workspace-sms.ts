import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema";
import {
  smsAccountPutSchema,
  smsAccountSchema,
  smsTestAnswerSchema,
  smsTestSchema,
} from "../../shared/jobs/sms-account";
import { requireSession, workspaceSession } from "../auth/session";
import { removeTwilioAccount, saveTwilioAccount, smsAccountView, twilioAccountOf } from "../email/sms-account";
import { sendTestSms } from "../email/sms";
import { LIMITS } from "../auth/rate-limit";
import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared, type RouteLimit } from "./route-declaration/declare";

const NO_STORE = { "Cache-Control": "no-store" };
/** Test texts a workspace may send, whoever of it asks: each is paid for by its account. */
const TEST_LIMITS: RouteLimit[] = [
  { limit: LIMITS.smsTests, per: "workspace", key: (c) => `ws:${c.var.session.workspaceId}` },
];

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
  )
  .post(
    "/sms/test",
    declared({
      permission: "workspace.configure",
      summary: "Send a test text through the workspace's Twilio account, so a wrong token or sender shows at once",
      tag: "Workspaces",
      body: smsTestSchema,
      response: smsTestAnswerSchema,
      errors: {
        400: "Twilio refused the account (`sms_account_refused`) or the text (`sms_test_refused`, in Twilio's words)",
        409: "No Twilio account is kept (`sms_not_configured`)",
        502: "Twilio could not be reached (`sms_provider_unreachable`)",
      },
      limits: TEST_LIMITS,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { to } = c.req.valid("json");
      const account = await twilioAccountOf(c.var.db, c.var.config.WEBHOOK_SECRET_KEY, workspaceId);
      if (!account)
        throw new ApiError(409, "sms_not_configured", "No Twilio account is kept: save one before sending a test");
      const workspace = await c.var.db
        .select({ name: workspaces.name })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .get();
      const providerId = await sendTestSms(c.var.config, account, { to, workspaceName: workspace?.name ?? "Fleet" });
      audit("customer_sms.test_sent", { workspaceId, by: c.var.session.userId });
      return c.json({ sent: true as const, to, providerId }, 200, NO_STORE);
    },
  );
