import { and, desc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { AlertRuleConfig } from "../../shared/alerts/alert-rules";
import { requireSession, workspaceSession } from "../auth/session";
import type { Db } from "../../db/client";
import { alertDeliveries } from "../../db/schema";
import { webhookTargetProblem } from "../alerts/webhook-target";
import type { Config } from "../env";
import { badRequest } from "../lib/errors";
import { membersAmong } from "../team/members";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * The delivery records for owners and admins (docs/decisions/0024; worker/api/route-rules.ts),
 * failed and dead ones included, so an operator sees what a receiver never got.
 */
export const deliveriesQuery = z.object({
  status: z
    .enum(["queued", "sending", "sent", "skipped", "dead"], {
      errorMap: () => ({ message: "status must be one of queued, sending, sent, skipped, dead" }),
    })
    .optional(),
  limit: z.coerce
    .number()
    .int("limit must be a whole number")
    .min(1, "limit must be 1 to 500")
    .max(500, "limit must be 1 to 500")
    .default(100),
});

export const alertDeliveryRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/",
  declared({
    permission: "workspace.configure",
    summary: "Alert deliveries (e-mail, webhook) and their state",
    tag: "Alerts",
    query: deliveriesQuery,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const { status, limit } = c.req.valid("query");
    const where = [
      eq(alertDeliveries.workspaceId, workspaceId),
      ...(status ? [eq(alertDeliveries.status, status)] : []),
    ];
    const rows = await c.var.db
      .select()
      .from(alertDeliveries)
      .where(and(...where))
      .orderBy(desc(alertDeliveries.updatedAt))
      .limit(limit)
      .all();
    return c.json({
      deliveries: rows.map(({ alertId, target, status, attempts, lastError, updatedAt }) => ({
        alertId,
        target,
        status,
        attempts,
        lastError,
        updatedAt: new Date(updatedAt).toISOString(),
      })),
    });
  },
);

/**
 * A rule's delivery choices, checked where it is written: e-mail goes only to members of the
 * workspace (an address that is not one is a 400), and a webhook must point at a public https
 * address (worker/alerts/webhook-target.ts).
 */
export async function checkNotify(db: Db, config: Config, workspaceId: string, rule: AlertRuleConfig): Promise<void> {
  const url = rule.notify?.webhookUrl;
  const problem = url ? webhookTargetProblem(url, config.ENVIRONMENT) : null;
  if (problem) throw badRequest(problem, { "notify.webhookUrl": [problem] });
  const emails = [...new Set((rule.notify?.emails ?? []).map((e) => e.trim().toLowerCase()))];
  if (!emails.length) return;
  const members = await membersAmong(db, workspaceId, emails);
  const strangers = emails.filter((e) => !members.has(e));
  if (strangers.length) {
    const message = `Alerts are e-mailed to members of this workspace only: ${strangers.join(", ")} is not one`;
    throw badRequest(message, { "notify.emails": [message] });
  }
}
