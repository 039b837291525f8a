/**
 * Flood control in front of ingestion, kept in the isolate's memory so a refusal costs no D1
 * round trip (the D1 counters of worker/auth/rate-limit.ts cost one upsert per check, more than
 * the report itself). Token buckets, counted in reports (a JSON request of 50 costs 50):
 *
 * - per device id: 2 reports/s sustained, bursts of 1,000 (a tracker reports at most once a second;
 *   one back from an hour offline at one report per 6 s drains its buffer at once, and Overland's
 *   largest batch, 1,000 points, passes whole: docs/decisions/0043). This one is
 *   kept by the device's workspace object (party/live-fleet/live-fleet.ts): one bucket per device
 *   whatever isolate its requests reach, and refusals counted on its health at once;
 * - per source address: 50 reports/s sustained, bursts of 6,000, since a fleet's trackers may all
 *   sit behind one mobile carrier's NAT. IPv6 is keyed by its /64 (one subscriber's prefix).
 *
 * Past them the request is answered 429 with Retry-After; a tracker keeps the report and retries
 * (Traccar Client does). Limits scale with RATE_LIMIT_SCALE. Device ids seen unknown a moment ago
 * are refused from memory (UnknownDevices) without asking D1 again.
 *
 * The address limit and the unknown-id memory stay per isolate, at the edge: before the device's
 * workspace is known there is no object to keep them in (an unknown id has none at all).
 * Cloudflare runs several isolates per location and many locations, so their effective limit for
 * a client spread over them is a multiple of these; the bound that matters (no single request
 * floods D1, no unknown id costs a read per request) holds in each. A global limit would use
 * Cloudflare's Rate Limiting binding or WAF rules in front of the route.
 */
import { ADDRESS_LIMIT, MAX_KEYS, TokenBuckets } from "../../domain/limits/token-buckets";

export {
  ADDRESS_LIMIT,
  DEVICE_LIMIT,
  MAX_KEYS,
  TokenBuckets,
  type BucketLimit,
  type Take,
} from "../../domain/limits/token-buckets";

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
  const groups = ip.includes("::")
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** One set of limits per isolate (and per RATE_LIMIT_SCALE, which tests and benchmarks raise). */
export interface IngestThrottle {
  addresses: TokenBuckets;
  unknown: UnknownDevices;
}

const throttles = new Map<number, IngestThrottle>();

export function ingestThrottle(scale: number): IngestThrottle {
  let t = throttles.get(scale);
  if (!t) {
    t = { addresses: new TokenBuckets(ADDRESS_LIMIT, scale), unknown: new UnknownDevices() };
    throttles.set(scale, t);
  }
  return t;
}
