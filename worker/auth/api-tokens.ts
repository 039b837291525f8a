import { and, eq, isNull } from "drizzle-orm";
import type { Context } from "hono";
import { API_TOKEN_PREFIX, scopeActions, scopeRole } from "../../shared/account/api-tokens";
import { isRole, lesserRole, type Action } from "../../shared/account/roles";
import { TokenBuckets } from "../../domain/limits/token-buckets";
import { apiTokens, memberships } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { audit } from "../lib/audit";
import { ApiError, forbidden } from "../lib/errors";
import type { AppEnv } from "../types";
import type { SessionInfo } from "./session-info";

/**
 * API tokens as bearers (docs/decisions/0029, 0041). A token acts in its own workspace only. What
 * it may do is read from the action of the route against its scope (`scopeActions`: never leave,
 * members, invites, tokens, settings or a person's own routes) and against its role: the lesser of
 * its scope's role and its creator's current role, so a demoted creator's token is demoted with
 * them, and one whose creator is no longer a member answers nothing (401). Looked up on every
 * request (revocation is effective on the next); `lastUsedAt` is written at most once a minute.
 * Each token has its own rate limit and audit lines.
 */
export const API_TOKEN_LAST_USED_INTERVAL_MS = 60_000;
/** Per token: 10 requests a second sustained, bursts of 100 (scaled by RATE_LIMIT_SCALE). */
export const API_TOKEN_LIMIT = { perSecond: 10, burst: 100 };

export const newApiTokenSecret = () => `${API_TOKEN_PREFIX}${randomToken(32)}`;
export const isApiTokenSecret = (token: string) => token.startsWith(API_TOKEN_PREFIX);

let buckets: { scale: number; buckets: TokenBuckets } | null = null;
function limiter(scale: number) {
  if (buckets?.scale !== scale) buckets = { scale, buckets: new TokenBuckets(API_TOKEN_LIMIT, scale) };
  return buckets.buckets;
}

/** The session-like identity an API token gives, or null when it names no live token. */
export async function apiTokenSession(c: Context<AppEnv>, token: string): Promise<SessionInfo | null> {
  if (token.length > 200) return null;
  const tokenHash = await sha256Hex(token);
  const db = c.var.db;
  const row = await db
    .select({
      id: apiTokens.id,
      workspaceId: apiTokens.workspaceId,
      scope: apiTokens.scope,
      createdBy: apiTokens.createdBy,
      lastUsedAt: apiTokens.lastUsedAt,
      creatorRole: memberships.role,
    })
    .from(apiTokens)
    // A token lives only while its creator is a member (removing them also revokes it, worker/team/credentials.ts).
    .innerJoin(
      memberships,
      and(eq(memberships.workspaceId, apiTokens.workspaceId), eq(memberships.userId, apiTokens.createdBy)),
    )
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .get();
  if (!row?.createdBy || !isRole(row.creatorRole)) return null;
  const now = Date.now();
  const take = limiter(c.var.config.RATE_LIMIT_SCALE).take(row.id, 1, now);
  if (!take.ok) {
    audit("api_token.refused", { tokenId: row.id, workspaceId: row.workspaceId, reason: "rate_limited" });
    c.header("Retry-After", String(take.retryAfterS));
    throw new ApiError(
      429,
      "rate_limited",
      `Too many requests with this API token. Try again in ${take.retryAfterS} s.`,
    );
  }
  if (row.lastUsedAt === null || now - row.lastUsedAt >= API_TOKEN_LAST_USED_INTERVAL_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  return {
    tokenHash,
    // What a handler records as the actor (a beacon order's limit, a share's creator): the person who made the token.
    userId: row.createdBy,
    workspaceId: row.workspaceId,
    role: lesserRole(scopeRole[row.scope], row.creatorRole),
    signinId: `api-token:${row.id}`,
    apiToken: { id: row.id, scope: row.scope },
  };
}

/**
 * 403 unless the token's scope holds the route's action (worker/api/route-rules.ts then checks its
 * role as for a person); a person's `signed-in` routes are never a token's. Every write is audited.
 */
export function checkApiTokenRoute(session: SessionInfo, rule: "signed-in" | Action, route: string, method: string) {
  const token = session.apiToken!;
  const fields = { tokenId: token.id, workspaceId: session.workspaceId, scope: token.scope, route };
  if (rule === "signed-in" || !scopeActions[token.scope].includes(rule)) {
    audit("api_token.refused", { ...fields, reason: "outside_scope" });
    throw forbidden("An API token cannot do this: sign in as a person");
  }
  if (method !== "GET") audit("api_token.used", fields);
}
