import { and, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Db } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { PHOTO_UPLOADS_PER_MINUTE } from "../../shared/maintenance/photos";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";

/**
 * Fixed-window abuse limits kept in D1 (one upsert per counted key), scaled by RATE_LIMIT_SCALE
 * (tests and benchmarks raise it). Addresses are keyed by network (IPv6 /64, which one client
 * rotates through freely; IPv4 as is), so rotating addresses does not escape a limit.
 *
 * Limits stop attackers, not offices: an office behind one address can sign up and sign in tens
 * of people an hour. Sign-in reserves an attempt atomically *before* the password is checked and
 * gives it back when the password was right (worker/auth/signin-limits.ts), so parallel guesses
 * cannot pass a limit and successes never spend one. Nothing keyed by an e-mail alone refuses:
 * only the owner's networks get past a spent per-account budget, so strangers lock out only
 * themselves (docs/decisions/0021-security-second-round.md).
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
  /**
   * Failed sign-ins of one account from networks that never signed in to it: a distributed attack
   * on one account (ASVS V2.2.1: at most 100 an hour). Once spent, only the owner's known networks
   * are tried.
   */
  signinAccountFailures: { name: "signin-fail-acct", max: 25, windowMs: 15 * MINUTE },
  /** Failed sign-ins everywhere: past it every sign-in is slowed by a delay, never refused. */
  signinGlobalFailures: { name: "signin-fail-all", max: 2_000, windowMs: 15 * MINUTE },
  /** Wrong second-factor codes of one account, across its sign-in challenges (a code is 1 in 333,333 a try). */
  secondFactorFailures: { name: "second-factor-fail", max: 10, windowMs: 15 * MINUTE },
  /** A password change while signed in (its current password is a guess like any other). */
  passwordChange: { name: "password-change", max: 10, windowMs: 15 * MINUTE },
  signup: { name: "signup", max: 50, windowMs: 60 * MINUTE },
  signupEmail: { name: "signup-email", max: 5, windowMs: 60 * MINUTE },
  /** Keyed by network only: any per-e-mail limit here would let strangers break the owner's login page. */
  verifyEmail: { name: "verify", max: 60, windowMs: 15 * MINUTE },
  forgot: { name: "forgot", max: 20, windowMs: 60 * MINUTE },
  /** Reset requests for one e-mail from one network: refuses (429) only that network. */
  forgotPerEmailAndNetwork: { name: "forgot-email-net", max: 5, windowMs: 60 * MINUTE },
  /**
   * Reset e-mails to one address requested from networks that never signed in to it: past it no
   * more mail is sent to them (the owner's inbox is not flooded), while a request from a network
   * the owner signed in from is always sent. Never a refusal.
   */
  forgotMailsPerEmail: { name: "forgot-email", max: 5, windowMs: 60 * MINUTE },
  oauth: { name: "oauth", max: 60, windowMs: 15 * MINUTE },
  /** Full reads of a workspace (first pulls and resets) per user and workspace: each reads every row. */
  fullReads: { name: "full-read", max: 10, windowMs: MINUTE },
  /** Beacon orders (of up to 100 each) per account per day. */
  beaconOrders: { name: "beacon-orders", max: 50, windowMs: 24 * 60 * MINUTE },
  /**
   * Invitation e-mails (invites and resends together, issue 34): per member who sends them, per
   * workspace, per address from one workspace, and per address from every workspace together (so
   * the product cannot be used to flood one inbox). Answered 429 with the limit in the message.
   */
  invitesPerMember: { name: "invite-member", max: 20, windowMs: 24 * 60 * MINUTE },
  invitesPerWorkspace: { name: "invite-ws", max: 50, windowMs: 24 * 60 * MINUTE },
  invitesPerAddressInWorkspace: { name: "invite-addr-ws", max: 3, windowMs: 24 * 60 * MINUTE },
  invitesPerAddress: { name: "invite-addr", max: 10, windowMs: 24 * 60 * MINUTE },
  /** "Resend" of the address-confirmation link, per account (issue 39). */
  confirmationLinks: { name: "confirm-link", max: 5, windowMs: 60 * MINUTE },
  /** New workspaces per account per day. */
  workspaceCreations: { name: "workspaces", max: 20, windowMs: 24 * 60 * MINUTE },
  /**
   * CSV imports of jobs (up to a day of a workspace each, issue 51): per member and workspace (an
   * API token's imports spend its creator's too), and per API token.
   */
  jobImportsPerMember: { name: "job-import-member", max: 20, windowMs: 60 * MINUTE },
  jobImportsPerToken: { name: "job-import-token", max: 10, windowMs: 60 * MINUTE },
  /**
   * Day plans per workspace (issue 54, docs/decisions/0088): each is seconds of CPU (ADR 0076
   * bounds one at about 4 s), so a workspace starts at most this many a minute, whoever asks.
   * Another workspace's budget is its own.
   */
  routePlans: { name: "route-plan-ws", max: 6, windowMs: MINUTE },
  /** Test texts per workspace (issue 53): each is a paid text on the workspace's Twilio account. */
  smsTests: { name: "sms-test-ws", max: 5, windowMs: 60 * MINUTE },
  /** Photo uploads per member and workspace (issue 39): 429 with Retry-After; a phone's queue retries. */
  photoUploads: { name: "photo-upload", max: PHOTO_UPLOADS_PER_MINUTE, windowMs: MINUTE },
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
  const zeros =
    tail === undefined ? [] : Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0");
  const groups = [...headGroups, ...zeros, ...tailGroups].slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "") || "0");
  return `${groups.join(":")}::/64`;
}

const scaled = (c: Context<AppEnv>, limit: Limit) => Math.max(1, Math.floor(limit.max * c.var.config.RATE_LIMIT_SCALE));
const windowOf = (limit: Limit, now: number) => now - (now % limit.windowMs);

function tooMany(c: Context<AppEnv>, limit: Limit, now: number): ApiError {
  c.header("Retry-After", String(Math.ceil((windowOf(limit, now) + limit.windowMs - now) / 1000)));
  return new ApiError(429, "rate_limited", "Too many attempts. Try again later.");
}

/**
 * Takes one unit of a key's budget in ONE guarded statement (an upsert whose update only runs while
 * the count is under the limit, or in a new window): true when taken. D1 runs statements one at a
 * time, so N parallel callers get at most `max` trues; there is no read-then-write to race.
 */
export function reserve(c: Context<AppEnv>, limit: Limit, key: string): Promise<boolean> {
  return reserveIn(c.var.db, limit, key, c.var.config.RATE_LIMIT_SCALE);
}

/** `reserve` for callers without a request context (the workspace's room). */
export async function reserveIn(db: Db, limit: Limit, key: string, scale: number): Promise<boolean> {
  const max = Math.max(1, Math.floor(limit.max * scale));
  return (await upsertCount(db, limit, key, Date.now(), max)) !== null;
}

/** Gives back a unit `reserve` took (the attempt succeeded, so it was no guess). */
export async function release(c: Context<AppEnv>, limit: Limit, key: string): Promise<void> {
  await c.var.db
    .update(rateLimits)
    .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, `${limit.name}:${key}`), eq(rateLimits.windowStart, windowOf(limit, Date.now()))));
}

/** 429 with Retry-After for a limit that is spent. */
export function refusal(c: Context<AppEnv>, limit: Limit): ApiError {
  return tooMany(c, limit, Date.now());
}

/** Adds one to a key's count in the current window and answers the new count. */
async function count(c: Context<AppEnv>, limit: Limit, key: string, now: number): Promise<number> {
  return (await upsertCount(c.var.db, limit, key, now)) ?? 0;
}

/**
 * The one statement behind every counter: adds one to the key's count in the current window (a new
 * window starts at 1) and answers the new count. With `max`, the add happens only while the count
 * is under it (atomic: parallel callers cannot pass it together) and a spent key answers null.
 */
async function upsertCount(db: Db, limit: Limit, key: string, now: number, max?: number): Promise<number | null> {
  const windowStart = windowOf(limit, now);
  const row = await db
    .insert(rateLimits)
    .values({ key: `${limit.name}:${key}`, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = ${windowStart} THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart,
      },
      ...(max === undefined
        ? {}
        : { setWhere: sql`${rateLimits.windowStart} <> ${windowStart} OR ${rateLimits.count} < ${max}` }),
    })
    .returning({ count: rateLimits.count })
    .get();
  return row?.count ?? null;
}

/** Counts one against the key and answers whether it is now past its limit (nothing refused here). */
export async function countPast(c: Context<AppEnv>, limit: Limit, key: string): Promise<boolean> {
  return (await count(c, limit, key, Date.now())) > scaled(c, limit);
}
