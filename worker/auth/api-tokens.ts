import { and, eq, isNull } from "drizzle-orm";
import type { Context } from "hono";
import { API_TOKEN_PREFIX, type ApiTokenScope } from "../../shared/api-tokens";
import type { Action } from "../../shared/roles";
import { TokenBuckets } from "../../party/live-fleet/token-buckets";
import { apiTokens } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { audit } from "../lib/audit";
import { ApiError, forbidden } from "../lib/errors";
import type { AppEnv } from "../types";
import type { SessionInfo } from "./session";

/**
 * API tokens as bearers (docs/decisions/0029). A token acts in its own workspace only, with the
 * role its scope maps to (read: viewer, write: member), so the role table decides what it may do
 * exactly as for a person; and it is not a session: routes about a person (account, sign-out,
 * workspace switch, personal subscriptions) and the managing actions (members, invites, tokens,
 * settings) refuse it with 403. Looked up on every request (revocation is effective on the next);
 * `lastUsedAt` is written at most once a minute. Each token has its own rate limit and audit lines.
 */
export const API_TOKEN_LAST_USED_INTERVAL_MS = 60_000;
/** Per token: 10 requests a second sustained, bursts of 100 (scaled by RATE_LIMIT_SCALE). */
export const API_TOKEN_LIMIT = { perSecond: 10, burst: 100 };

const roleOfScope: Record<ApiTokenScope, string> = { read: "viewer", write: "member" };

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
    })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .get();
  if (!row) return null;
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
    // What a handler records as the actor (a beacon order's limit, a sync client group): the person who made the token.
    userId: row.createdBy ?? `api-token:${row.id}`,
    workspaceId: row.workspaceId,
    role: roleOfScope[row.scope],
    signinId: `api-token:${row.id}`,
    apiToken: { id: row.id, scope: row.scope },
  };
}

/** What only a person's session may do (worker/api/route-rules.ts asks before the role table). */
const sessionOnlyActions: readonly Action[] = ["members.manage", "workspace.configure"];
/** workspace.view routes that act on the caller's own person, not on the workspace. */
const personalRoutes = new Set([
  "GET /reports/subscription",
  "PUT /reports/subscription",
  "POST /alerts/read",
  "POST /sync/push",
  "POST /sync/pull",
]);

/** 403 unless an API token may call a route of this rule; every request it makes is audited. */
export function checkApiTokenRoute(session: SessionInfo, rule: "signed-in" | Action, route: string, method: string) {
  const token = session.apiToken!;
  const fields = { tokenId: token.id, workspaceId: session.workspaceId, scope: token.scope, route };
  if (rule === "signed-in" || sessionOnlyActions.includes(rule) || personalRoutes.has(route)) {
    audit("api_token.refused", { ...fields, reason: "session_only" });
    throw forbidden("An API token cannot do this: sign in as a person");
  }
  if (method !== "GET") audit("api_token.used", fields);
}
