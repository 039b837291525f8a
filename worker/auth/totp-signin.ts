import type { Context } from "hono";
import type { AppEnv } from "../types";

/**
 * The second step of a sign-in for accounts with two-factor authentication. Not built yet in this
 * round (docs/security.md, V2.8): no account has a second factor, so no challenge is asked.
 */
export async function secondFactorChallenge(_c: Context<AppEnv>, _userId: string, _method: string): Promise<string | null> {
  return null;
}
