import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, desc, eq, sql } from "drizzle-orm";
import type { PushNotice } from "../../shared/account/push";
import type { Db } from "../../db/client";
import { pushSends, pushSubscriptions, sessions } from "../../db/schema";
import { SESSION_IDLE_MS } from "../auth/session";
import { webhookTargetProblem } from "../alerts/webhook-target";
import type { Config } from "../env";

/** A push service that takes longer than this has failed this delivery. */
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps a notice for a phone that is off (an assignment still matters tomorrow). */
const PUSH_TTL_S = 24 * 60 * 60;

type Subscription = typeof pushSubscriptions.$inferSelect;

/**
 * At most this many subscriptions per person (every workspace together): a new one past it
 * replaces their oldest (a person changing phones is never stuck behind a 409), so one notice
 * fans out to at most this many push services.
 */
export const PUSH_SUBSCRIPTIONS_PER_PERSON = 10;
/** At most this many push services are called at once by one send (one request, one cron run). */
export const PUSH_CONCURRENCY = 4;

/**
 * A subscription is live only while the sign-in that made it is (not revoked, within both its
 * limits): what sign-out, "sign out everywhere", a password change or a session ended from the
 * list end, whether or not the statement that deletes its row ran (worker/auth/end-sessions.ts).
 */
const madeByLiveSignin = (now: number) => sql`EXISTS (
  SELECT 1 FROM ${sessions}
  WHERE (${sessions.signinId} = ${pushSubscriptions.signinId} OR ${sessions.tokenHash} = ${pushSubscriptions.signinId})
    AND ${sessions.userId} = ${pushSubscriptions.userId}
    AND ${sessions.revokedAt} IS NULL
    AND ${sessions.expiresAt} > ${now}
    AND coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}) > ${now - SESSION_IDLE_MS})`;

/**
 * Sends `notice` to every browser where this member of this workspace turned push on while
 * signed in (docs/decisions/0047, 0072): encrypted for each (RFC 8291, aes128gcm) and signed with
 * the Worker's VAPID key (RFC 8292), PUSH_CONCURRENCY at a time. Each subscription gets a notice
 * once: `noticeId` (default: its tag) is claimed per endpoint before the send, so a retried caller
 * sends nothing twice. A subscription the push service says is gone (404, 410) is deleted. Best
 * effort: a push is a nudge, the Inbox and My actions hold the facts, so failures are logged, not
 * retried. Answers how many push services accepted the notice.
 */
export async function pushToMember(
  db: Db,
  config: Config,
  target: { workspaceId: string; userId: string },
  notice: PushNotice,
  noticeId: string = notice.tag,
): Promise<number> {
  const now = Date.now();
  const subscriptions = await db
    .select()
    .from(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.workspaceId, target.workspaceId),
        eq(pushSubscriptions.userId, target.userId),
        madeByLiveSignin(now),
      ),
    )
    .orderBy(desc(pushSubscriptions.createdAt))
    .limit(PUSH_SUBSCRIPTIONS_PER_PERSON)
    .all();
  if (subscriptions.length === 0) return 0;
  const claimed = await db
    .insert(pushSends)
    .values(subscriptions.map((s) => ({ endpoint: s.endpoint, noticeId, sentAt: now })))
    .onConflictDoNothing()
    .returning({ endpoint: pushSends.endpoint });
  const mine = new Set(claimed.map((c) => c.endpoint));
  const outcomes = await inTurns(
    subscriptions.filter((s) => mine.has(s.endpoint)),
    PUSH_CONCURRENCY,
    (s) => pushTo(db, config, s, notice),
  );
  return outcomes.filter(Boolean).length;
}

/** `work` over `items`, at most `width` at a time, answers in the items' order. */
async function inTurns<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
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
