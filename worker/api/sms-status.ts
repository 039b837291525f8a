import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { jobMessages } from "../../db/schema";
import { twilioSignatureValid } from "../email/sms";
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

/**
 * POST /api/sms/status: Twilio's delivery report of a text to a customer (worker/email/sms.ts sets
 * it as the StatusCallback, docs/decisions/0085). Public, its credential Twilio's signature over
 * this URL and the form (refused 403 without it): a text that failed after Twilio took it shows as
 * "bounced" on its job, one refused for STOP as "unsubscribed". Any other report changes nothing.
 */
export const smsStatusRoutes = new Hono<AppEnv>().post(
  "/status",
  declared({
    permission: "public",
    summary: "Twilio's delivery report of a text to a customer (signed by Twilio)",
    tag: "Jobs",
    described: { body: statusReport, form: true },
    errors: { 403: "Not signed by the configured Twilio account" },
  }),
  async (c) => {
    const form = Object.fromEntries(
      Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    const url = new URL("/api/sms/status", c.var.config.APP_URL).href;
    if (!(await twilioSignatureValid(c.var.config, url, form, c.req.header("X-Twilio-Signature"))))
      throw new ApiError(403, "forbidden", "Not signed by the configured Twilio account");
    const report = statusReport.safeParse(form);
    if (!report.success || !FAILED.has(report.data.MessageStatus)) return c.body(null, 204);
    const status = report.data.ErrorCode === OPTED_OUT_CODE ? "unsubscribed" : "bounced";
    const changed = await c.var.db
      .update(jobMessages)
      .set({ status, updatedAt: Date.now() })
      .where(and(eq(jobMessages.providerId, report.data.MessageSid), eq(jobMessages.channel, "sms")))
      .returning({ workspaceId: jobMessages.workspaceId });
    if (changed[0]) audit("customer_sms.report", { workspaceId: changed[0].workspaceId, status });
    return c.body(null, 204);
  },
);
