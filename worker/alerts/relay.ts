import { and, asc, eq, inArray, isNull, min, sql } from "drizzle-orm";
import { z } from "zod";
import type { AlertNotify } from "../../shared/alerts/alert-rules";
import type { Db } from "../../db/client";
import type { Config } from "../env";
import { alertOutbox, alertRules, alerts } from "../../db/schema";
import { reportSetAside } from "./relay-report";

/**
 * The relay from D1 to the delivery queue (docs/decisions/0024, 0028). An alert of a rule that
 * notifies someone is put in `alert_outbox` by a trigger, in the same transaction that writes the
 * alert (migration 0012). The cron runs the relay every minute; each alert becomes one message per
 * target; the outbox rows go once the queue has the messages.
 *
 * One tenant can delay only itself (issue 34): the relay takes each workspace with pending rows in
 * turn, oldest first, at most PER_WORKSPACE_PER_RUN alerts each, so one workspace's volume leaves
 * the others their turn in the same run; a workspace's failure is caught and never ends the run;
 * an alert that cannot be queued (a message too large, a queue that refuses it) is set aside with
 * its reason and reported to that workspace's owners and admins, instead of staying at the head.
 */
export const deliveryMessageSchema = z.object({
  workspaceId: z.string().min(1),
  alertId: z.string().min(1),
  /** `webhook:<url>` or `email:<address>` (the consumer checks the address is still a member's) */
  target: z.string().regex(/^(webhook|email):./),
});
export type DeliveryMessage = z.infer<typeof deliveryMessageSchema>;

/** Alerts of one workspace read at a time, and at most this many per workspace per run (the rest waits a minute). */
const RELAY_CHUNK = 50;
export const PER_WORKSPACE_PER_RUN = 200;
/** Workspaces served per run, oldest pending alert first. */
const WORKSPACES_PER_RUN = 500;
/** Queues take 128 KB per message and 256 KB per sendBatch (and 100 messages): stay well under. */
export const MAX_MESSAGE_BYTES = 100_000;
const MAX_BATCH_BYTES = 200_000;
const MAX_BATCH_COUNT = 100;

export function targetsOf(notify: AlertNotify | null | undefined): string[] {
  if (!notify) return [];
  const emails = [...new Set((notify.emails ?? []).map((e) => e.trim().toLowerCase()))].map((e) => `email:${e}`);
  return notify.webhookUrl ? [`webhook:${notify.webhookUrl}`, ...emails] : emails;
}

/** What the cron's run did: messages queued, and alerts set aside. */
export interface RelayRun {
  sent: number;
  setAside: number;
}

/** One relay run over every workspace with pending outbox rows, each in turn; returns how many messages went to the queue. */
export async function relayAlerts(db: Db, queue: Queue<DeliveryMessage>, config: Config): Promise<number> {
  return (await relayRun(db, queue, config)).sent;
}

export async function relayRun(db: Db, queue: Queue<DeliveryMessage>, config: Config): Promise<RelayRun> {
  const pending = await db
    .select({ workspaceId: alertOutbox.workspaceId, oldest: min(alertOutbox.createdAt) })
    .from(alertOutbox)
    .where(isNull(alertOutbox.setAsideAt))
    .groupBy(alertOutbox.workspaceId)
    .orderBy(asc(min(alertOutbox.createdAt)))
    .limit(WORKSPACES_PER_RUN)
    .all();
  const run: RelayRun = { sent: 0, setAside: 0 };
  for (const { workspaceId } of pending) {
    try {
      const done = await relayWorkspace(db, queue, config, workspaceId);
      run.sent += done.sent;
      run.setAside += done.setAside;
    } catch (error) {
      // D1 itself failing for this workspace: its rows stay for the next run, the others go on
      console.error(
        `alert relay: workspace ${workspaceId} failed this run:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return run;
}

/** Up to PER_WORKSPACE_PER_RUN of one workspace's pending alerts, oldest first. */
async function relayWorkspace(
  db: Db,
  queue: Queue<DeliveryMessage>,
  config: Config,
  workspaceId: string,
): Promise<RelayRun> {
  const run: RelayRun = { sent: 0, setAside: 0 };
  const reasons: string[] = [];
  for (let taken = 0; taken < PER_WORKSPACE_PER_RUN; taken += RELAY_CHUNK) {
    const rows = await db
      .select({ alertId: alertOutbox.alertId })
      .from(alertOutbox)
      .where(and(eq(alertOutbox.workspaceId, workspaceId), isNull(alertOutbox.setAsideAt)))
      .orderBy(asc(alertOutbox.createdAt))
      .limit(RELAY_CHUNK)
      .all();
    if (!rows.length) break;
    const ids = rows.map((r) => r.alertId);
    const byAlert = await messagesFor(db, workspaceId, ids);
    const { sent, failed } = await enqueue(queue, byAlert);
    for (const [alertId, reason] of failed) {
      await db
        .update(alertOutbox)
        .set({ setAsideAt: Date.now(), setAsideReason: reason })
        .where(and(eq(alertOutbox.alertId, alertId), eq(alertOutbox.workspaceId, workspaceId)));
      reasons.push(reason);
    }
    const done = ids.filter((id) => !failed.has(id));
    // in-list: `done` is at most RELAY_CHUNK (50) alerts, as are the lists of messagesFor
    if (done.length)
      await db
        .delete(alertOutbox)
        .where(and(eq(alertOutbox.workspaceId, workspaceId), inArray(alertOutbox.alertId, done)));
    run.sent += sent;
    run.setAside += failed.size;
    if (rows.length < RELAY_CHUNK) break;
  }
  if (reasons.length)
    await reportSetAside(db, workspaceId, reasons, config).catch((error) =>
      console.error("alert relay: reporting set-aside alerts failed:", error),
    );
  return run;
}

const bytesOf = (m: DeliveryMessage) => new TextEncoder().encode(JSON.stringify(m)).length;

/**
 * Sends each alert's messages in batches bounded by count and bytes. An alert with a message
 * too large to queue fails at once; a batch the queue refuses is retried alert by alert, so only
 * the alert that causes it fails. Returns the messages sent and each failed alert's reason.
 */
async function enqueue(queue: Queue<DeliveryMessage>, byAlert: Map<string, DeliveryMessage[]>) {
  const failed = new Map<string, string>();
  const ok: [string, DeliveryMessage[]][] = [];
  for (const [alertId, messages] of byAlert) {
    const largest = Math.max(0, ...messages.map(bytesOf));
    if (largest > MAX_MESSAGE_BYTES)
      failed.set(
        alertId,
        `a target of this alert's rule is too large to queue (${largest} bytes; at most ${MAX_MESSAGE_BYTES})`,
      );
    else ok.push([alertId, messages]);
  }
  let sent = 0;
  for (const group of batchesOf(ok)) {
    try {
      await send(
        queue,
        group.flatMap(([, m]) => m),
      );
      sent += group.reduce((n, [, m]) => n + m.length, 0);
    } catch {
      for (const [alertId, messages] of group) {
        try {
          await send(queue, messages);
          sent += messages.length;
        } catch (error) {
          failed.set(
            alertId,
            `the delivery queue refused this alert: ${error instanceof Error ? error.message.slice(0, 200) : "unknown error"}`,
          );
        }
      }
    }
  }
  return { sent, failed };
}

/** Groups whole alerts into batches of at most MAX_BATCH_COUNT messages and MAX_BATCH_BYTES. */
function batchesOf(alertsWithMessages: [string, DeliveryMessage[]][]) {
  const batches: [string, DeliveryMessage[]][][] = [];
  let current: [string, DeliveryMessage[]][] = [];
  let count = 0;
  let bytes = 0;
  for (const entry of alertsWithMessages) {
    const size = entry[1].reduce((n, m) => n + bytesOf(m), 0);
    if (current.length && (count + entry[1].length > MAX_BATCH_COUNT || bytes + size > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      count = 0;
      bytes = 0;
    }
    current.push(entry);
    count += entry[1].length;
    bytes += size;
  }
  if (current.length) batches.push(current);
  return batches;
}

/** sendBatch in slices a queue takes (an alert has at most 21 targets, so one alert's messages fit one slice). */
async function send(queue: Queue<DeliveryMessage>, messages: DeliveryMessage[]) {
  for (let i = 0; i < messages.length; i += MAX_BATCH_COUNT) {
    const slice = messages.slice(i, i + MAX_BATCH_COUNT);
    if (slice.length) await queue.sendBatch(slice.map((body) => ({ body, contentType: "json" as const })));
  }
}

/** Each alert's targets, from its rule as it is now (a rule deleted meanwhile notifies no one: an empty list). */
async function messagesFor(db: Db, workspaceId: string, alertIds: string[]): Promise<Map<string, DeliveryMessage[]>> {
  const byAlert = new Map<string, DeliveryMessage[]>(alertIds.map((id) => [id, []]));
  // in-list: at most RELAY_CHUNK (50) alerts, and so at most 50 rules below
  const rows = await db
    .select({ id: alerts.id, ruleId: alerts.ruleId })
    .from(alerts)
    .where(and(eq(alerts.workspaceId, workspaceId), inArray(alerts.id, alertIds)))
    .all();
  if (!rows.length) return byAlert;
  // the rule must be the alert's own workspace's: tenant isolation does not trust ids alone
  const rules = await db
    .select()
    .from(alertRules)
    .where(
      and(
        eq(alertRules.workspaceId, workspaceId),
        eq(alertRules.deleted, false),
        // in-list: one rule per alert of the chunk, at most RELAY_CHUNK (50)
        inArray(alertRules.id, [...new Set(rows.map((r) => r.ruleId))]),
      ),
    )
    .all();
  const ruleOf = new Map(rules.map((r) => [r.id, r]));
  for (const alert of rows) {
    const rule = ruleOf.get(alert.ruleId);
    if (rule)
      byAlert.set(
        alert.id,
        targetsOf(rule.config.notify).map((target) => ({ workspaceId, alertId: alert.id, target })),
      );
  }
  return byAlert;
}

/** Set-aside rows of a workspace (for its admins and tests). */
export const setAsideOf = (db: Db, workspaceId: string) =>
  db
    .select()
    .from(alertOutbox)
    .where(and(eq(alertOutbox.workspaceId, workspaceId), sql`${alertOutbox.setAsideAt} is not null`))
    .all();
