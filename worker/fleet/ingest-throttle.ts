/**
 * Flood control in front of ingestion, kept in the isolate's memory so a refusal costs no D1
 * round trip (the D1 counters of worker/auth/rate-limit.ts cost one upsert per check, more than
 * the report itself). Token buckets, counted in reports (a JSON request of 50 costs 50):
 *
 * - per device id: 2 reports/s sustained, bursts of 600 (a tracker reports at most once a second;
 *   one back from an hour offline at one report per 6 s drains its buffer at once);
 * - per source address: 50 reports/s sustained, bursts of 6,000, since a fleet's trackers may all
 *   sit behind one mobile carrier's NAT. IPv6 is keyed by its /64 (one subscriber's prefix).
 *
 * Past them the request is answered 429 with Retry-After; a tracker keeps the report and retries
 * (Traccar Client does). Limits scale with RATE_LIMIT_SCALE. Device ids seen unknown a moment ago
 * are refused from memory (UnknownDevices) without asking D1 again.
 *
 * Per isolate: Cloudflare runs several isolates per location and many locations, so the effective
 * limit for a client spread over them is a multiple of these; the bound that matters (no single
 * request floods D1, no unknown id costs a read per request) holds in each. A global limit would
 * use Cloudflare's Rate Limiting binding or WAF rules in front of the route.
 */
export interface BucketLimit {
  perSecond: number;
  burst: number;
}

export const DEVICE_LIMIT: BucketLimit = { perSecond: 2, burst: 600 };
export const ADDRESS_LIMIT: BucketLimit = { perSecond: 50, burst: 6_000 };
/** Keys remembered per isolate; the least recently seen go first (bounded memory under a spray of ids). */
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
    const bucket = old ? { ...old, tokens: Math.min(burst, old.tokens + ((now - old.at) / 1000) * perSecond), at: now } : { tokens: burst, at: now, refused: 0 };
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

/** How long a device id answered unknown is refused from memory. */
export const UNKNOWN_TTL_MS = 60_000;

/** A short-lived negative cache of device ids D1 did not know. */
export class UnknownDevices {
  private readonly until = new Map<string, number>();

  has(id: string, now: number): boolean {
    const expires = this.until.get(id);
    if (expires === undefined) return false;
    if (expires > now) return true;
    this.until.delete(id);
    return false;
  }

  add(id: string, now: number) {
    this.until.delete(id);
    this.until.set(id, now + UNKNOWN_TTL_MS);
    if (this.until.size > MAX_KEYS) this.until.delete(this.until.keys().next().value!);
  }
}

/** The throttle key of a source address: IPv4 as is, IPv6 by its /64 prefix. */
export function addressKey(ip: string): string {
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const [head = "", tail = ""] = ip.toLowerCase().split("%")[0]!.split("::");
  const left = head ? head.split(":") : [];
  const right = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** One set of limits per isolate (and per RATE_LIMIT_SCALE, which tests and benchmarks raise). */
export interface IngestThrottle {
  devices: TokenBuckets;
  addresses: TokenBuckets;
  unknown: UnknownDevices;
}

const throttles = new Map<number, IngestThrottle>();

export function ingestThrottle(scale: number): IngestThrottle {
  let t = throttles.get(scale);
  if (!t) {
    t = { devices: new TokenBuckets(DEVICE_LIMIT, scale), addresses: new TokenBuckets(ADDRESS_LIMIT, scale), unknown: new UnknownDevices() };
    throttles.set(scale, t);
  }
  return t;
}
