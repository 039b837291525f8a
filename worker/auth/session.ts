import { and, eq, gt, isNull } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Db } from "../db/client";
import { memberships, sessions } from "../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { forbidden, unauthorized } from "../lib/errors";
import type { AppEnv } from "../types";

/** Sessions last 30 days; a password reset or logout revokes them earlier. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionInfo {
  tokenHash: string;
  userId: string;
  workspaceId: string | null;
}

/** Creates a session and returns its bearer token (only its hash is stored). */
export async function createSession(db: Db, userId: string, workspaceId: string | null) {
  const token = randomToken(32);
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    userId,
    workspaceId,
    expiresAt: Date.now() + SESSION_TTL_MS,
  });
  return token;
}

/**
 * The live (unexpired, unrevoked) session a bearer token names, or null. Its workspace is the
 * session's only while the user is still a member of it: every workspace-scoped API (sync,
 * beacons, the realtime room) reads `workspaceId` from here, so a removed member loses access at
 * once, with one query.
 */
export async function findSession(db: Db, token: string): Promise<SessionInfo | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = await sha256Hex(token);
  const row = await db
    .select({ tokenHash: sessions.tokenHash, userId: sessions.userId, workspaceId: memberships.workspaceId })
    .from(sessions)
    .leftJoin(memberships, and(eq(memberships.workspaceId, sessions.workspaceId), eq(memberships.userId, sessions.userId)))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, Date.now())))
    .get();
  return row ?? null;
}

export function bearerToken(header: string | undefined | null): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** The session with its workspace, for routes that work inside one; 403 for a session without. */
export function workspaceSession(session: SessionInfo): SessionInfo & { workspaceId: string } {
  if (!session.workspaceId) throw forbidden("Choose a workspace first");
  return { ...session, workspaceId: session.workspaceId };
}

/** Rejects the request with 401 unless it carries a live session; exposes it as `c.var.session`. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  const session = token ? await findSession(c.var.db, token) : null;
  if (!session) throw unauthorized();
  c.set("session", session);
  await next();
});
