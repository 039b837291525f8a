import type { Db } from "../../db/client";
import type { Config } from "../env";
import { alertIsIn, claimDelivery, finishDelivery, releaseDelivery } from "./delivery-record";
import { deliveryMessageSchema } from "./relay";
import { RefusedTarget, sendDelivery } from "./send";

/**
 * The delivery queue's consumer (docs/decisions/0024): claim, send, record. A failed attempt is
 * retried by the queue after retryDelaySeconds (30 s, doubling, capped at 12 h); after
 * DELIVERY_MAX_ATTEMPTS attempts (about 29 hours) the record becomes `dead`, the dead-letter
 * record owners and admins see at GET /api/alert-deliveries.
 */
export const DELIVERY_MAX_ATTEMPTS = 13;
const FIRST_DELAY_S = 30;
/** The longest delay a queue message may be retried with. */
const MAX_DELAY_S = 43_200;

/** Seconds before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(FIRST_DELAY_S * 2 ** (attempt - 1), MAX_DELAY_S);
}

export async function consumeDeliveries(db: Db, config: Config, batch: MessageBatch): Promise<void> {
  await Promise.all(batch.messages.map((message) => deliverOne(db, config, message)));
}

async function deliverOne(db: Db, config: Config, message: Message): Promise<void> {
  const parsed = deliveryMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    console.error("alert delivery: a message of an unknown shape was dropped", parsed.error.issues);
    return message.ack();
  }
  const m = parsed.data;
  // a message naming another workspace than its alert's is never claimed (nor blocks the real one)
  if (!(await alertIsIn(db, m))) return message.ack();
  // already sent, skipped, given up, or being sent by another copy of this message
  if (!(await claimDelivery(db, m))) return message.ack();
  try {
    await finishDelivery(db, m, await sendDelivery(db, config, m));
    message.ack();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // a target refused before any request (worker/alerts/webhook-target.ts) is not retried
    if (message.attempts >= DELIVERY_MAX_ATTEMPTS || error instanceof RefusedTarget) {
      console.error(`alert delivery dead after ${message.attempts} attempts (${m.alertId} -> ${m.target}): ${reason}`);
      await finishDelivery(db, m, "dead", reason);
      return message.ack();
    }
    await releaseDelivery(db, m, reason);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}
