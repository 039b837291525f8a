import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { jobMessages } from "../../db/schema";
import { smsStatusUrl, twilioSignatureValid } from "../email/sms";
import { twilioAccountOf } from "../email/sms-account";
import { audit } from "../lib/audit";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/** The fields of Twilio's delivery report this reads (it sends more; all are signed). */
const statusReport = z.object({
  MessageSid: z.string().max(64),
  MessageStatus: z.string().max(32),
  ErrorCode: z.string().max(16).optional(),
});
/** A text Twilio could not deliver; 21610: the number answered STOP. */
const FAILED = new Set(["failed", "undelivered"]);
const OPTED_OUT_CODE = "21610";

/** The workspace whose account sent the text: its token checks the report (docs/decisions/0093). */
const statusParams = z.object({ workspaceId: z.string().min(1).max(100) });

/**
 * POST /api/sms/status/{workspaceId}: Twilio's delivery report of a text a workspace sent its
 * customer through its own account (worker/email/sms.ts sets it as the StatusCallback,
 * docs/decisions/0085, 0093). Public, its credential Twilio's signature over this URL and the form
 * under THAT workspace's auth token (refused 403 without it, or when the workspace has no account):
 * a text that failed after Twilio took it shows as "bounced" on its job, one refused for STOP as
 * "unsubscribed", and only among the workspace's own messages. Any other report changes nothing.
 */
export const smsStatusRoutes = new Hono<AppEnv>().post(
  "/status/:workspaceId",
  declared({
    permission: "public",
    summary: "Twilio's delivery report of a text a workspace sent its customer (signed with its account's token)",
    tag: "Jobs",
    params: statusParams,
    described: { body: statusReport, form: true },
    errors: { 403: "Not signed by the workspace's Twilio account" },
  }),
  async (c) => {
    const { workspaceId } = c.req.valid("param");
    const form = Object.fromEntries(
      Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    const account = await twilioAccountOf(c.var.db, c.var.config.WEBHOOK_SECRET_KEY, workspaceId);
    const url = smsStatusUrl(c.var.config, workspaceId);
    const signature = c.req.header("X-Twilio-Signature");
    if (!account || !(await twilioSignatureValid(account.authToken, url, form, signature)))
      throw new ApiError(403, "forbidden", "Not signed by the workspace's Twilio account");
    const report = statusReport.safeParse(form);
    if (!report.success || !FAILED.has(report.data.MessageStatus)) return c.body(null, 204);
    const status = report.data.ErrorCode === OPTED_OUT_CODE ? "unsubscribed" : "bounced";
    const changed = await c.var.db
      .update(jobMessages)
      .set({ status, updatedAt: Date.now() })
      .where(
        and(
          eq(jobMessages.workspaceId, workspaceId),
          eq(jobMessages.providerId, report.data.MessageSid),
          eq(jobMessages.channel, "sms"),
        ),
      )
      .returning({ id: jobMessages.id });
    if (changed[0]) audit("customer_sms.report", { workspaceId, status });
    return c.body(null, 204);
  },
);
