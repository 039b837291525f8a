import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { rateLimits } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/**
 * Fixed-window abuse limits kept in D1 (one upsert per check). Limits are per IP and per e-mail,
 * scaled by RATE_LIMIT_SCALE (tests and benchmarks raise it).
 */
export interface Limit {
  /** e.g. "signin" */
  name: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  signin: { name: "signin", max: 10, windowMs: 15 * 60_000 },
  signup: { name: "signup", max: 5, windowMs: 60 * 60_000 },
  verifyEmail: { name: "verify", max: 20, windowMs: 15 * 60_000 },
  forgot: { name: "forgot", max: 5, windowMs: 60 * 60_000 },
  oauth: { name: "oauth", max: 30, windowMs: 15 * 60_000 },
} satisfies Record<string, Limit>;

export function clientIp(c: Context<AppEnv>): string {
  return c.req.header("CF-Connecting-IP") ?? "local";
}

/** Counts one attempt against each key; throws 429 once any is over its limit. */
export async function rateLimit(c: Context<AppEnv>, limit: Limit, keys: string[]) {
  const max = Math.max(1, Math.floor(limit.max * c.var.config.RATE_LIMIT_SCALE));
  const now = Date.now();
  const windowStart = now - (now % limit.windowMs);
  for (const key of keys) {
    const row = await c.var.db
      .insert(rateLimits)
      .values({ key: `${limit.name}:${key}`, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: rateLimits.key,
        set: {
          count: sql`CASE WHEN ${rateLimits.windowStart} = ${windowStart} THEN ${rateLimits.count} + 1 ELSE 1 END`,
          windowStart,
        },
      })
      .returning({ count: rateLimits.count })
      .get();
    if (row && row.count > max) {
      const retryAfter = Math.ceil((windowStart + limit.windowMs - now) / 1000);
      c.header("Retry-After", String(retryAfter));
      throw new ApiError(429, "rate_limited", "Too many attempts. Try again later.");
    }
  }
}
