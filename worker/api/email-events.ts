import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { jobMessages, jobs } from "../../db/schema";
import { recordUnsubscribed } from "../email/customer-mail";
import { resendEventSchema, resendSignatureValid } from "../email/resend-events";
import { audit } from "../lib/audit";
import { ApiError, badRequest } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/** What an event does to the job message it names: a bounce shows as such, a spam complaint unsubscribes. */
const EFFECT = { "email.bounced": "bounced", "email.complained": "unsubscribed" } as const;

/**
 * POST /api/email/events: Resend's webhook for mail to a job's customer (docs/decisions/0085).
 * Public, its credential the Svix signature under RESEND_WEBHOOK_SECRET (403 without it, or with
 * none configured). A bounce turns the message's status on its job to "bounced"; a complaint to
 * "unsubscribed", and the address gets no more messages from that workspace, as the unsubscribe
 * link would do. Events of other mail, other kinds and unknown ids change nothing (204), so
 * Resend's retries settle.
 */
export const emailEventRoutes = new Hono<AppEnv>().post(
  "/events",
  declared({
    permission: "public",
    summary: "Resend's delivery events of mail to customers (signed by Resend)",
    tag: "Jobs",
    described: { body: resendEventSchema },
    errors: { 403: "Not signed with the configured webhook secret" },
  }),
  async (c) => {
    const body = await c.req.text();
    const signed = await resendSignatureValid(
      c.var.config.RESEND_WEBHOOK_SECRET,
      {
        id: c.req.header("svix-id"),
        timestamp: c.req.header("svix-timestamp"),
        signature: c.req.header("svix-signature"),
      },
      body,
    );
    if (!signed) throw new ApiError(403, "forbidden", "Not signed with the configured webhook secret");
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw badRequest("The body is not JSON");
    }
    const event = resendEventSchema.safeParse(json);
    if (!event.success) throw badRequest("Not a Resend event");
    const status = EFFECT[event.data.type as keyof typeof EFFECT];
    if (!status) return c.body(null, 204);
    const changed = await c.var.db
      .update(jobMessages)
      .set({ status, updatedAt: Date.now() })
      .where(and(eq(jobMessages.providerId, event.data.data.email_id), eq(jobMessages.channel, "email")))
      .returning({ workspaceId: jobMessages.workspaceId, jobId: jobMessages.jobId })
      .then((rows) => rows[0]);
    if (!changed) return c.body(null, 204);
    audit("customer_mail.report", { workspaceId: changed.workspaceId, status });
    if (status === "unsubscribed") await unsubscribeComplainer(c, changed, event.data.data.to?.[0]);
    return c.body(null, 204);
  },
);

/** A complaint ends the workspace's mail to the address it went to (Resend names it; else the job's). */
async function unsubscribeComplainer(
  c: { var: AppEnv["Variables"] },
  message: { workspaceId: string; jobId: string },
  to: string | undefined,
) {
  const job = to
    ? null
    : await c.var.db
        .select({ email: jobs.customerEmail })
        .from(jobs)
        .where(and(eq(jobs.id, message.jobId), eq(jobs.workspaceId, message.workspaceId)))
        .get();
  const address = (to ?? job?.email ?? "").trim().toLowerCase();
  if (address) await recordUnsubscribed(c.var.db, c.var.config, message.workspaceId, address);
}
