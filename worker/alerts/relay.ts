import { asc, inArray } from "drizzle-orm";
import { z } from "zod";
import type { AlertNotify } from "../../shared/alert-rules";
import type { Db } from "../../db/client";
import { alertOutbox, alertRules, alerts } from "../../db/schema";

/**
 * The relay from D1 to the delivery queue (docs/decisions/0024). An alert of a rule that notifies
 * someone is put in `alert_outbox` by a trigger, in the same transaction that writes the alert
 * (migration 0012): so it is enqueued only once it is durably stored, whoever stored it, and
 * never from the ingestion request itself (a slow receiver cannot slow ingestion). The cron runs
 * the relay every minute; each alert becomes one message per target; the outbox rows go once the
 * queue has the messages (a crash in between re-sends messages the consumer then skips).
 */
export const deliveryMessageSchema = z.object({
  workspaceId: z.string().min(1),
  alertId: z.string().min(1),
  /** `webhook:<url>` or `email:<address>` (the consumer checks the address is still a member's) */
  target: z.string().regex(/^(webhook|email):./),
});
export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

/** Outbox rows read at a time, and at most this many reads per run (the rest waits a minute). */
const RELAY_BATCH = 30;
const RELAY_PASSES = 20;
/** A queue's sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

export function targetsOf(notify: AlertNotify | null | undefined): string[] {
  if (!notify) return [];
  const emails = [...new Set((notify.emails ?? []).map((e) => e.trim().toLowerCase()))].map((e) => `email:${e}`);
  return notify.webhookUrl ? [`webhook:${notify.webhookUrl}`, ...emails] : emails;
}

/** One relay pass over the oldest outbox rows; returns how many messages went to the queue. */
export async function relayAlerts(db: Db, queue: Queue<DeliveryMessage>): Promise<number> {
  let sent = 0;
  for (let pass = 0; pass < RELAY_PASSES; pass++) {
    const pending = await db.select().from(alertOutbox).orderBy(asc(alertOutbox.createdAt)).limit(RELAY_BATCH).all();
    if (!pending.length) break;
    const messages = await messagesFor(db, pending.map((p) => p.alertId));
    for (let i = 0; i < messages.length; i += SEND_BATCH) {
      await queue.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const })));
    }
    await db.delete(alertOutbox).where(inArray(alertOutbox.alertId, pending.map((p) => p.alertId)));
    sent += messages.length;
    if (pending.length < RELAY_BATCH) break;
  }
  return sent;
}

/** Each alert's targets, from its rule as it is now (a rule deleted meanwhile notifies no one). */
async function messagesFor(db: Db, alertIds: string[]): Promise<DeliveryMessage[]> {
  const rows = await db.select({ id: alerts.id, workspaceId: alerts.workspaceId, ruleId: alerts.ruleId }).from(alerts).where(inArray(alerts.id, alertIds)).all();
  if (!rows.length) return [];
  const rules = await db.select().from(alertRules).where(inArray(alertRules.id, [...new Set(rows.map((r) => r.ruleId))])).all();
  const ruleOf = new Map(rules.map((r) => [r.id, r]));
  return rows.flatMap((alert) => {
    const rule = ruleOf.get(alert.ruleId);
    // the rule must be the alert's own workspace's: tenant isolation does not trust ids alone
    if (!rule || rule.deleted || rule.workspaceId !== alert.workspaceId) return [];
    return targetsOf(rule.config.notify).map((target) => ({ workspaceId: alert.workspaceId, alertId: alert.id, target }));
  });
}
