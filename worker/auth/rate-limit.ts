import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import { rateLimits } from "../db/schema";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/**
 * Fixed-window abuse limits kept in D1 (one upsert per counted key), scaled by RATE_LIMIT_SCALE
 * (tests and benchmarks raise it). Addresses are keyed by network (IPv6 /64, which one client
 * rotates through freely; IPv4 as is), so rotating addresses does not escape a limit.
 *
 * Limits stop attackers, not offices: an office behind one address can sign up and sign in tens
 * of people an hour. Sign-in counts failures, not attempts, per e-mail *and* address, so a stranger
 * guessing an owner's password locks out only themselves; an address's failures across e-mails
 * (stuffing) and a global failure budget (a distributed attack) are bounded too.
 */
export interface Limit {
  /** e.g. "signin" */
  name: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const LIMITS = {
  /** Failed sign-ins of one e-mail from one network: the lockout. */
  signinFailures: { name: "signin-fail", max: 10, windowMs: 15 * MINUTE },
  /** Failed sign-ins from one network, whichever e-mails (credential stuffing). */
  signinAddressFailures: { name: "signin-fail-net", max: 50, windowMs: 15 * MINUTE },
  /** Failed sign-ins everywhere: a distributed attack slows every guess down, not a sign-in that works. */
  signinGlobalFailures: { name: "signin-fail-all", max: 2_000, windowMs: 15 * MINUTE },
  /** A password change while signed in (its current password is a guess like any other). */
  passwordChange: { name: "password-change", max: 10, windowMs: 15 * MINUTE },
  signup: { name: "signup", max: 50, windowMs: 60 * MINUTE },
  signupEmail: { name: "signup-email", max: 5, windowMs: 60 * MINUTE },
  verifyEmail: { name: "verify", max: 60, windowMs: 15 * MINUTE },
  verifyEmailPerEmail: { name: "verify-email", max: 20, windowMs: 15 * MINUTE },
  forgot: { name: "forgot", max: 20, windowMs: 60 * MINUTE },
  forgotPerEmail: { name: "forgot-email", max: 5, windowMs: 60 * MINUTE },
  oauth: { name: "oauth", max: 60, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;

/**
 * The caller's network: CF-Connecting-IP (set by Cloudflare, not the client), IPv6 cut to its
 * /64, IPv4 (also IPv4-mapped IPv6) whole. "local" when absent (wrangler dev, tests).
 */
export function clientIp(c: Context<AppEnv>): string {
  return networkOf(c.req.header("CF-Connecting-IP"));
}

export function networkOf(address: string | undefined | null): string {
  if (!address) return "local";
  const ip = address.trim().toLowerCase();
  if (!ip.includes(":")) return ip;
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return mapped[1]!;
  const [head = "", tail] = ip.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0");
  const groups = [...headGroups, ...zeros, ...tailGroups].slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "") || "0");
  return `${groups.join(":")}::/64`;
}

const scaled = (c: Context<AppEnv>, limit: Limit) => Math.max(1, Math.floor(limit.max * c.var.config.RATE_LIMIT_SCALE));
const windowOf = (limit: Limit, now: number) => now - (now % limit.windowMs);

function tooMany(c: Context<AppEnv>, limit: Limit, now: number): ApiError {
  c.header("Retry-After", String(Math.ceil((windowOf(limit, now) + limit.windowMs - now) / 1000)));
  return new ApiError(429, "rate_limited", "Too many attempts. Try again later.");
}

/** Adds one to a key's count in the current window and answers the new count. */
async function count(c: Context<AppEnv>, limit: Limit, key: string, now: number): Promise<number> {
  const windowStart = windowOf(limit, now);
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
  return row?.count ?? 0;
}

/** Counts one attempt against each key; throws 429 once any is over its limit. */
export async function rateLimit(c: Context<AppEnv>, limit: Limit, keys: string[]) {
  const now = Date.now();
  for (const key of keys) {
    if ((await count(c, limit, key, now)) > scaled(c, limit)) throw tooMany(c, limit, now);
  }
}

/** Throws 429 when the key has already used up its limit in this window (counts nothing). */
export async function refuseWhenSpent(c: Context<AppEnv>, limit: Limit, key: string) {
  const now = Date.now();
  const row = await c.var.db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, `${limit.name}:${key}`), eq(rateLimits.windowStart, windowOf(limit, now))))
    .get();
  if ((row?.count ?? 0) >= scaled(c, limit)) throw tooMany(c, limit, now);
}

/** Records one failure against the key (for limits that count failures, not attempts). */
export async function countFailure(c: Context<AppEnv>, limit: Limit, key: string) {
  await count(c, limit, key, Date.now());
}
