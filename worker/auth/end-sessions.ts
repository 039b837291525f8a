import { and, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import { pushSubscriptions, sessions } from "../../db/schema";
import { audit } from "../lib/audit";
import { announceWrites } from "../workspace-object";
import type { AppEnv } from "../types";

/** Which sessions to end: one sign-in (sign-out), or every session of an account. */
export type SessionScope = { signinId: string } | { userId: string } | { userId: string; exceptSigninId: string };

export type EndReason =
  | "signout"
  | "signout_everywhere"
  | "password_reset"
  | "password_changed"
  | "workspace_switch"
  | "oauth_link_took_over_unverified_account"
  | "session_signed_out"
  | "account_deleted"
  | "two_factor_changed";

/**
 * Revokes the sessions in scope with the push subscriptions they made, records it on the audit
 * trail, and closes their open realtime sockets (the rooms are told at once; the Worker does not wait for them to answer the caller).
 */
export async function endSessions(c: Context<AppEnv>, scope: SessionScope, reason: EndReason): Promise<number> {
  const now = Date.now();
  const inScope: SQL | undefined =
    "signinId" in scope
      ? eq(sessions.signinId, scope.signinId)
      : "exceptSigninId" in scope
        ? and(
            eq(sessions.userId, scope.userId),
            sql`coalesce(${sessions.signinId}, ${sessions.tokenHash}) <> ${scope.exceptSigninId}`,
          )
        : eq(sessions.userId, scope.userId);
  const [ended] = await c.var.db.batch([
    c.var.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(inScope, isNull(sessions.revokedAt)))
      .returning({ tokenHash: sessions.tokenHash, userId: sessions.userId, workspaceId: sessions.workspaceId }),
    // The browsers those sign-ins turned push on for get nothing more (issue 51; the send also checks).
    c.var.db.delete(pushSubscriptions).where(subscriptionsOf(scope)),
  ]);
  await announceEnded(c, ended, reason);
  return ended.length;
}

/** The push subscriptions made by the sign-ins in scope. */
function subscriptionsOf(scope: SessionScope): SQL | undefined {
  if ("signinId" in scope) return eq(pushSubscriptions.signinId, scope.signinId);
  if ("exceptSigninId" in scope)
    return and(eq(pushSubscriptions.userId, scope.userId), ne(pushSubscriptions.signinId, scope.exceptSigninId));
  return eq(pushSubscriptions.userId, scope.userId);
}

/** Ends exactly one token (the one a workspace switch replaces). */
export async function endSession(c: Context<AppEnv>, tokenHash: string, reason: EndReason): Promise<void> {
  const ended = await c.var.db
    .update(sessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash, userId: sessions.userId, workspaceId: sessions.workspaceId })
    .all();
  await announceEnded(c, ended, reason);
}

export type Ended = { tokenHash: string; userId: string; workspaceId: string | null }[];

/** Audits sessions another statement revoked and closes their sockets (every revocation comes here). */
export async function announceEnded(c: Context<AppEnv>, ended: Ended, reason: EndReason) {
  if (ended.length === 0) return;
  audit("session.revoked", { userId: ended[0]!.userId, reason, sessions: ended.length });
  const byWorkspace = new Map<string, string[]>();
  for (const s of ended) {
    if (s.workspaceId) byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s.tokenHash]);
  }
  // Their sockets close at once (the answer does not wait for it; the room's re-check is the backstop).
  const closing = Promise.all(
    [...byWorkspace].map(([workspaceId, endedHashes]) =>
      announceWrites({ env: c.env }, [workspaceId], { change: { sessions: { endedHashes }, poke: false } }),
    ),
  );
  c.executionCtx.waitUntil(closing);
}
