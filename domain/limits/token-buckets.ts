/**
 * Token buckets, counted in reports (a JSON request of 50 costs 50), kept in memory: per source
 * address in the Worker (worker/fleet/ingest-throttle.ts) and per device in the workspace's
 * object (party/live-fleet/live-fleet.ts), where one bucket per device holds across every isolate.
 */
export interface BucketLimit {
  perSecond: number;
  burst: number;
}

/** A device's burst holds the largest batch an app sends (Overland's 1,000 points, docs/decisions/0043): a smaller one could never pass. */
export const DEVICE_LIMIT: BucketLimit = { perSecond: 2, burst: 1_000 };
export const ADDRESS_LIMIT: BucketLimit = { perSecond: 50, burst: 6_000 };
/** Keys remembered per holder; the least recently seen go first (bounded memory under a spray of ids). */
export const MAX_KEYS = 20_000;

interface Bucket {
  tokens: number;
  at: number;
  /** Reports refused since the last accepted request (counted on the beacon's health then). */
  refused: number;
}

export type Take = { ok: true; refusedBefore: number } | { ok: false; retryAfterS: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly limit: BucketLimit;

  constructor(limit: BucketLimit, scale = 1) {
    this.limit = { perSecond: limit.perSecond * scale, burst: Math.max(1, Math.floor(limit.burst * scale)) };
  }

  /** Takes `cost` tokens for `key` if it has them; a refused request takes nothing. */
  take(key: string, cost: number, now: number): Take {
    const { perSecond, burst } = this.limit;
    const old = this.buckets.get(key);
    const bucket = old
      ? { ...old, tokens: Math.min(burst, old.tokens + ((now - old.at) / 1000) * perSecond), at: now }
      : { tokens: burst, at: now, refused: 0 };
    this.buckets.delete(key); // re-inserted last: the Map's order is least recently seen first
    if (bucket.tokens < cost) {
      bucket.refused += cost;
      this.remember(key, bucket);
      // A request bigger than the whole burst can never pass: say when the bucket is full again.
      const missing = Math.min(cost, burst) - bucket.tokens;
      return { ok: false, retryAfterS: Math.max(1, Math.ceil(missing / perSecond)) };
    }
    const refusedBefore = bucket.refused;
    this.remember(key, { tokens: bucket.tokens - cost, at: now, refused: 0 });
    return { ok: true, refusedBefore };
  }

  private remember(key: string, bucket: Bucket) {
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_KEYS) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
