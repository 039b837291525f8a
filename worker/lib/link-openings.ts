import type { Context } from "hono";
import { TokenBuckets } from "../../domain/limits/token-buckets";
import { clientIp } from "../auth/rate-limit";
import { addressKey } from "../fleet/ingest-throttle";
import type { AppEnv } from "../types";
import { audit, type AuditEvent } from "./audit";
import { ApiError } from "./errors";

/** Opening a public link, per source address: 2 a second sustained, bursts of 60 (a page polls every 3 s). */
export const LINK_OPEN_LIMIT = { perSecond: 2, burst: 60 };

/**
 * The budget of one kind of public link (a vehicle's share link, a job's customer link), whose
 * token is the only credential: guessing tokens costs an address its budget, and the link's own
 * page, polling, stays well inside it. Each kind keeps its own buckets, in this isolate, and
 * names the audit event of a refusal if it records one.
 */
export function linkOpenings(refusedEvent?: AuditEvent) {
  let openings: { scale: number; buckets: TokenBuckets } | null = null;
  /** Throws 429 with Retry-After once the caller's address has used its budget. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
  return (c: Context<AppEnv, any, any>) => {
    const scale = c.var.config.RATE_LIMIT_SCALE;
    if (openings?.scale !== scale) openings = { scale, buckets: new TokenBuckets(LINK_OPEN_LIMIT, scale) };
    const take = openings.buckets.take(addressKey(clientIp(c)), 1, Date.now());
    if (take.ok) return;
    if (refusedEvent) audit(refusedEvent, { ip: clientIp(c), reason: "rate_limited" });
    c.header("Retry-After", String(take.retryAfterS));
    throw new ApiError(429, "rate_limited", `Too many requests from this address. Try again in ${take.retryAfterS} s.`);
  };
}
