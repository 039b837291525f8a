import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { sessions } from "../../db/schema";
import { audit } from "../lib/audit";
import type { AppEnv } from "../types";
import { countPast, LIMITS, refusal, release, reserve, type Limit } from "./rate-limit";

/**
 * Password sign-in's limits (ASVS V2.2.1, OWASP Authentication Cheat Sheet), taken atomically
 * BEFORE the password is checked and given back when it was right, so:
 *  - parallel guesses cannot pass a limit (each reservation is one guarded D1 statement);
 *  - a correct password spends nothing, so an office signing in all day is never slowed;
 *  - a stranger's guesses lock out only the stranger's network for that account (per account and
 *    network), and a network's guesses across accounts are bounded (stuffing);
 *  - a distributed attack on one account spends a per-account budget that only networks which never
 *    signed in to that account draw on: the owner's known networks still sign in;
 *  - a distributed attack on everyone spends a global budget that only adds a delay, never refuses.
 */
export const GLOBAL_BUDGET_DELAY_MS = 1_000;

export interface Held {
  /** The reservations taken, given back on success. */
  taken: [Limit, string][];
}

/** Known network: this account signed in from it before (any session, even ended). */
export async function isKnownNetwork(c: Context<AppEnv>, userId: string, network: string): Promise<boolean> {
  const row = await c.var.db
    .select({ one: sessions.tokenHash })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.network, network)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** Takes one attempt from each budget or throws 429 (audited, with a hashed e-mail only). */
export async function holdSigninAttempt(
  c: Context<AppEnv>,
  emailKey: string,
  network: string,
  userId: string | null,
): Promise<Held> {
  const held: Held = { taken: [] };
  const take = async (limit: Limit, key: string) => {
    if (!(await reserve(c, limit, key))) {
      await releaseSigninAttempt(c, held);
      audit("signin.locked_out", { email: emailKey, ip: network, limit: limit.name });
      throw refusal(c, limit);
    }
    held.taken.push([limit, key]);
  };
  await take(LIMITS.signinFailures, `email:${emailKey}|ip:${network}`);
  await take(LIMITS.signinAddressFailures, `ip:${network}`);
  // The owner's networks neither spend nor need the per-account budget.
  if (!userId || !(await isKnownNetwork(c, userId, network)))
    await take(LIMITS.signinAccountFailures, `email:${emailKey}`);
  await slowWhenGlobalBudgetSpent(c);
  held.taken.push([LIMITS.signinGlobalFailures, "all"]);
  return held;
}

/** The password was right: the attempt was no guess, so nothing stays spent. */
export async function releaseSigninAttempt(c: Context<AppEnv>, held: Held): Promise<void> {
  for (const [limit, key] of held.taken) await release(c, limit, key);
  held.taken = [];
}

/**
 * Every attempt counts against the global budget (given back on success like the others); past it
 * each attempt waits a moment: a distributed attack's guesses get slower, a user with the right
 * password still signs in. Logged once per window per isolate.
 */
async function slowWhenGlobalBudgetSpent(c: Context<AppEnv>): Promise<void> {
  if (!(await countPast(c, LIMITS.signinGlobalFailures, "all"))) return;
  const window = Math.floor(Date.now() / LIMITS.signinGlobalFailures.windowMs);
  if (loggedWindow !== window) audit("signin.global_budget_spent", {});
  loggedWindow = window;
  await new Promise((resolve) => setTimeout(resolve, GLOBAL_BUDGET_DELAY_MS));
}
let loggedWindow = -1;
