import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, eq } from "drizzle-orm";
import type { PushNotice } from "../../shared/account/push";
import type { Db } from "../../db/client";
import { pushSubscriptions } from "../../db/schema";
import { webhookTargetProblem } from "../alerts/webhook-target";
import type { Config } from "../env";

/** A push service that takes longer than this has failed this delivery. */
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps a notice for a phone that is off (an assignment still matters tomorrow). */
const PUSH_TTL_S = 24 * 60 * 60;

type Subscription = typeof pushSubscriptions.$inferSelect;

/**
 * Sends `notice` to every browser where this member of this workspace turned push on
 * (docs/decisions/0047): encrypted for each (RFC 8291, aes128gcm) and signed with the Worker's
 * VAPID key (RFC 8292). A subscription the push service says is gone (404, 410) is deleted. Best
 * effort: a push is a nudge, the Inbox and My actions hold the facts, so failures are logged, not
 * retried. Answers how many push services accepted the notice.
 */
export async function pushToMember(
  db: Db,
  config: Config,
  target: { workspaceId: string; userId: string },
  notice: PushNotice,
): Promise<number> {
  const subscriptions = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.workspaceId, target.workspaceId), eq(pushSubscriptions.userId, target.userId)))
    .all();
  const outcomes = await Promise.all(subscriptions.map((s) => pushTo(db, config, s, notice)));
  return outcomes.filter(Boolean).length;
}

async function pushTo(db: Db, config: Config, s: Subscription, notice: PushNotice): Promise<boolean> {
  // Checked again at every send, as webhooks are: the Worker never calls a private address for a user.
  const problem = webhookTargetProblem(s.endpoint, config.ENVIRONMENT);
  if (problem || !s.endpoint.startsWith("https://")) {
    console.error("push endpoint refused:", problem ?? "not https");
    return false;
  }
  try {
    const payload = await buildPushPayload(
      { data: { ...notice }, options: { ttl: PUSH_TTL_S, urgency: "high" } },
      { endpoint: s.endpoint, expirationTime: null, keys: { p256dh: s.p256dh, auth: s.auth } },
      { subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
    );
    const res = await fetch(s.endpoint, {
      ...payload,
      redirect: "manual",
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, s.endpoint));
      return false;
    }
    if (!res.ok) console.error(`push service answered ${res.status}`);
    return res.ok;
  } catch (error) {
    console.error("push failed:", error);
    return false;
  }
}
