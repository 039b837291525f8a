import { and, eq, not, like } from "drizzle-orm";
import type { Db } from "../../db/client";
import { totpCredentials } from "../../db/schema";
import { seal, unseal } from "../alerts/webhook-secret";

/**
 * TOTP secrets are stored sealed like webhook secrets (issue 34): AES-256-GCM under
 * WEBHOOK_SECRET_KEY, bound to the user (`totp:<userId>` as associated data), so a copy of D1
 * alone does not let anyone make codes. A sealed value carries SEALED_PREFIX; a secret stored in
 * clear before this change is read as it is and sealed in place (on use, and by the cron's pass).
 */
export const SEALED_PREFIX = "sealed:v1:";
const boundTo = (userId: string) => `totp:${userId}`;

export const sealTotpSecret = async (key: string, userId: string, secret: string) =>
  SEALED_PREFIX + (await seal(key, boundTo(userId), secret));

export async function openTotpSecret(db: Db, key: string, userId: string, stored: string): Promise<string> {
  if (stored.startsWith(SEALED_PREFIX)) return unseal(key, boundTo(userId), stored.slice(SEALED_PREFIX.length));
  await sealInPlace(db, key, userId, stored);
  return stored;
}

async function sealInPlace(db: Db, key: string, userId: string, clear: string) {
  const sealed = await sealTotpSecret(key, userId, clear);
  await db
    .update(totpCredentials)
    .set({ secret: sealed })
    .where(and(eq(totpCredentials.userId, userId), eq(totpCredentials.secret, clear)));
}

/** The cron's migration pass: seals up to `limit` secrets still stored in clear; returns how many. */
export async function sealClearTotpSecrets(db: Db, key: string, limit = 100): Promise<number> {
  const clear = await db
    .select({ userId: totpCredentials.userId, secret: totpCredentials.secret })
    .from(totpCredentials)
    .where(not(like(totpCredentials.secret, `${SEALED_PREFIX}%`)))
    .limit(limit)
    .all();
  for (const row of clear) await sealInPlace(db, key, row.userId, row.secret);
  return clear.length;
}
