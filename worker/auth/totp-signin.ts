import { and, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Context } from "hono";
import { recoveryCodes, signinChallenges, totpCredentials } from "../../db/schema";
import { openTotpSecret } from "./totp-secret";
import { audit } from "../lib/audit";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import type { AppEnv } from "../types";
import { LIMITS, release, reserve } from "./rate-limit";
import { looksLikeTotp, matchingStep, normalRecoveryCode } from "./totp";

/** How long, and how many tries, a sign-in waits for its second factor. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_TRIES = 5;

/**
 * The second step of a sign-in for an account with two-factor authentication on: the first factor
 * (password or Google) was right, so a challenge is handed to the browser instead of a session.
 * Null when the account has no second factor.
 */
export async function secondFactorChallenge(
  c: Context<AppEnv>,
  userId: string,
  method: string,
): Promise<string | null> {
  const { db } = c.var;
  const totp = await db
    .select({ userId: totpCredentials.userId })
    .from(totpCredentials)
    .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.enabledAt)))
    .get();
  if (!totp) return null;
  const challenge = randomToken(32);
  const now = Date.now();
  await db.batch([
    // An account's expired challenges go as new ones come: the table stays small without a sweep.
    db.delete(signinChallenges).where(and(eq(signinChallenges.userId, userId), lt(signinChallenges.expiresAt, now))),
    db
      .insert(signinChallenges)
      .values({ challengeHash: await sha256Hex(challenge), userId, method, expiresAt: now + CHALLENGE_TTL_MS }),
  ]);
  return challenge;
}

const expired = () => new ApiError(401, "challenge_expired", "This sign-in expired. Start again.");
const wrongCode = () => new ApiError(401, "invalid_code", "Wrong code", { code: ["Wrong code"] });

/**
 * Answers a challenge with a code: the account's and method it belongs to when the code is right.
 * Each try is counted before the code is checked (one guarded update, so parallel tries cannot
 * pass the five), and every account has a budget of wrong codes across its challenges, so a
 * stolen password cannot be turned into endless guesses by signing in again and again.
 */
export async function answerChallenge(
  c: Context<AppEnv>,
  challenge: string,
  code: string,
): Promise<{ userId: string; method: string }> {
  const { db } = c.var;
  const challengeHash = await sha256Hex(challenge);
  const taken = await db
    .update(signinChallenges)
    .set({ attempts: sql`${signinChallenges.attempts} + 1` })
    .where(
      and(
        eq(signinChallenges.challengeHash, challengeHash),
        lt(signinChallenges.attempts, CHALLENGE_TRIES),
        gt(signinChallenges.expiresAt, Date.now()),
      ),
    )
    .returning({ userId: signinChallenges.userId, method: signinChallenges.method })
    .get();
  if (!taken) throw expired();
  if (!(await reserve(c, LIMITS.secondFactorFailures, `user:${taken.userId}`))) {
    audit("signin.second_factor_failed", { userId: taken.userId, reason: "budget_spent" });
    throw new ApiError(429, "rate_limited", "Too many attempts. Try again later.");
  }
  const ok = looksLikeTotp(code)
    ? await useTotpCode(c, taken.userId, code)
    : await useRecoveryCode(c, taken.userId, code);
  if (!ok) {
    audit("signin.second_factor_failed", { userId: taken.userId, reason: "wrong_code" });
    throw wrongCode();
  }
  await release(c, LIMITS.secondFactorFailures, `user:${taken.userId}`);
  await db.delete(signinChallenges).where(eq(signinChallenges.challengeHash, challengeHash));
  return taken;
}

/** A code of the app, accepted once: the step is stored by a guarded update, so a replay (or a race) fails. */
export async function useTotpCode(c: Context<AppEnv>, userId: string, code: string): Promise<boolean> {
  const { db } = c.var;
  const row = await db.select().from(totpCredentials).where(eq(totpCredentials.userId, userId)).get();
  if (!row) return false;
  const secret = await openTotpSecret(db, c.var.config.WEBHOOK_SECRET_KEY, userId, row.secret);
  const step = matchingStep(secret, code, Date.now(), row.lastStep);
  if (step === null) return false;
  const stored = await db
    .update(totpCredentials)
    .set({ lastStep: step })
    .where(and(eq(totpCredentials.userId, userId), lt(totpCredentials.lastStep, step)))
    .returning({ step: totpCredentials.lastStep })
    .get();
  return stored !== undefined;
}

/** A recovery code, used up by the same guarded update that checks it. */
export async function useRecoveryCode(c: Context<AppEnv>, userId: string, code: string): Promise<boolean> {
  const used = await c.var.db
    .update(recoveryCodes)
    .set({ usedAt: Date.now() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, await sha256Hex(normalRecoveryCode(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ userId: recoveryCodes.userId })
    .get();
  if (used) audit("signin.recovery_code_used", { userId });
  return used !== undefined;
}
