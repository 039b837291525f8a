import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { alertDeliveries, alerts } from "../../db/schema";
import type { DeliveryMessage } from "./relay";

/**
 * The delivery record of one alert and one target (docs/decisions/0024): the consumer claims it
 * before sending, in one statement (an upsert whose update is guarded, returning the row only to
 * the claimer), so two copies of a message, or two consumers, never both send. A claim older
 * than STALE_CLAIM_MS belongs to a consumer that died mid-send and may be taken over.
 */
export const STALE_CLAIM_MS = 5 * 60_000;

export type FinalStatus = "sent" | "skipped" | "dead";

const keyOf = (m: DeliveryMessage) =>
  and(
    eq(alertDeliveries.alertId, m.alertId),
    eq(alertDeliveries.target, m.target),
    eq(alertDeliveries.workspaceId, m.workspaceId),
  );

/** The message's alert is one of the message's workspace (tenant isolation trusts no id alone). */
export async function alertIsIn(db: Db, m: DeliveryMessage): Promise<boolean> {
  const row = await db
    .select({ id: alerts.id })
    .from(alerts)
    .where(and(eq(alerts.id, m.alertId), eq(alerts.workspaceId, m.workspaceId)))
    .get();
  return !!row;
}

/** True when this caller now holds the delivery (status `sending`); false when it is done or held. */
export async function claimDelivery(db: Db, m: DeliveryMessage, now = Date.now()): Promise<boolean> {
  const row = await db
    .insert(alertDeliveries)
    .values({
      alertId: m.alertId,
      target: m.target,
      workspaceId: m.workspaceId,
      status: "sending",
      attempts: 1,
      claimedAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [alertDeliveries.alertId, alertDeliveries.target],
      set: { status: "sending", attempts: sql`${alertDeliveries.attempts} + 1`, claimedAt: now, updatedAt: now },
      setWhere: sql`${alertDeliveries.workspaceId} = ${m.workspaceId} AND (${alertDeliveries.status} = 'queued' OR (${alertDeliveries.status} = 'sending' AND ${alertDeliveries.claimedAt} < ${now - STALE_CLAIM_MS}))`,
    })
    .returning({ status: alertDeliveries.status })
    .get();
  return row?.status === "sending";
}

/** A failed attempt: back to `queued` (its message is retried later) with what went wrong. */
export async function releaseDelivery(db: Db, m: DeliveryMessage, error: string, now = Date.now()) {
  await db
    .update(alertDeliveries)
    .set({ status: "queued", lastError: error.slice(0, 500), claimedAt: null, updatedAt: now })
    .where(keyOf(m));
}

export async function finishDelivery(
  db: Db,
  m: DeliveryMessage,
  status: FinalStatus,
  error: string | null = null,
  now = Date.now(),
) {
  await db
    .update(alertDeliveries)
    .set({ status, lastError: error?.slice(0, 500) ?? null, updatedAt: now })
    .where(keyOf(m));
}
