import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Db } from "../../db/client";
import { memberships, sessions } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { randomToken, sha256Hex } from "../lib/crypto";
import { forbidden, unauthorized } from "../lib/errors";
import type { AppEnv } from "../types";
import { apiTokenSession, isApiTokenSecret } from "./api-tokens";
import { networkOf } from "./rate-limit";

/**
 * Session lifetime (ASVS V3.3, docs/decisions/0010-sessions-socket-tickets-csp.md): a sign-in
 * lasts at most 30 days whatever the use, and ends after 14 days without use. Sign-out, "sign out
 * everywhere" and a password reset revoke earlier (worker/auth/end-sessions.ts).
 */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
/** Each use restarts the idle clock, but only one write a minute per session, so reads stay reads. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** A session usable at `now`: not revoked, within its absolute limit, used within its idle limit. */
const stillLive = (now: number) =>
  [
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    gt(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`, now - SESSION_IDLE_MS),
  ] as const;

import type { SessionInfo } from "./session-info";

export type { SessionInfo };

/** Where a sign-in came from: shown in the sessions list, and the sign-in limits' known networks. */
export interface Device {
  network: string | null;
  userAgent: string | null;
}

/** The sign-in a new token belongs to: its id, absolute end and device, inherited by derived tokens. */
export interface SignIn extends Partial<Device> {
  signinId: string;
  expiresAt: number;
}

/** The caller's device as a new sign-in records it (the User-Agent cut, it is shown, never trusted). */
export function deviceOf(c: Context<AppEnv>): Device {
  return {
    network: networkOf(c.req.header("CF-Connecting-IP")),
    userAgent: c.req.header("User-Agent")?.slice(0, 256) ?? null,
  };
}

/**
 * Creates a session and returns its bearer token (only its hash is stored). Without `from` it is
 * a new sign-in; with it, a token derived from that sign-in (same id, same absolute end).
 */
export async function createSession(
  db: Db,
  userId: string,
  workspaceId: string | null,
  from?: SignIn,
  device?: Device,
) {
  const token = randomToken(32);
  const now = Date.now();
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    userId,
    workspaceId,
    signinId: from?.signinId ?? crypto.randomUUID(),
    // Its start, end and first use from one clock (the Worker's), not the start from D1's: the
    // 30 days are exactly 30 days, whatever the two clocks' skew (or a test's shifted hour).
    createdAt: now,
    expiresAt: from?.expiresAt ?? now + SESSION_TTL_MS,
    lastUsedAt: now,
    network: from?.network ?? device?.network ?? null,
    userAgent: from?.userAgent ?? device?.userAgent ?? null,
  });
  return token;
}

/**
 * The live (unrevoked, within both the absolute and the idle limit) session a bearer token names,
 * or null. Its workspace is the session's only while the user is still a member of it: every
 * workspace-scoped API (sync, beacons, the realtime room) reads `workspaceId` from here, so a
 * removed member loses access at once, with one query. A use restarts the idle clock.
 */
export async function findSession(db: Db, token: string): Promise<SessionInfo | null> {
  if (!token || token.length > 200) return null;
  return findSessionByHash(db, await sha256Hex(token));
}

export async function findSessionByHash(db: Db, tokenHash: string): Promise<SessionInfo | null> {
  const now = Date.now();
  const row = await db
    .select({
      tokenHash: sessions.tokenHash,
      userId: sessions.userId,
      workspaceId: memberships.workspaceId,
      role: memberships.role,
      signinId: sql<string>`coalesce(${sessions.signinId}, ${sessions.tokenHash})`,
      lastUsedAt: sql<number>`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`,
    })
    .from(sessions)
    .leftJoin(
      memberships,
      and(eq(memberships.workspaceId, sessions.workspaceId), eq(memberships.userId, sessions.userId)),
    )
    .where(and(eq(sessions.tokenHash, tokenHash), ...stillLive(now)))
    .get();
  if (!row) return null;
  if (now - row.lastUsedAt >= LAST_USED_WRITE_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  const { lastUsedAt: _, ...session } = row;
  return session;
}

/** The sign-in a live session belongs to, for deriving a token from it. */
export async function signInOf(db: Db, tokenHash: string): Promise<SignIn> {
  const row = await db
    .select({
      signinId: sql<string>`coalesce(${sessions.signinId}, ${sessions.tokenHash})`,
      expiresAt: sessions.expiresAt,
      network: sessions.network,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenHash))
    .get();
  if (!row) throw unauthorized();
  return row;
}

/**
 * Of these sessions, the ones still live and still naming `workspaceId` with a membership in it:
 * what a realtime room re-checks its open sockets against. Read-only (an open socket is not a use).
 */
export async function liveSessionsIn(db: Db, workspaceId: string, tokenHashes: string[]): Promise<Set<string>> {
  const now = Date.now();
  const live = new Set<string>();
  // One bound parameter per hash, leaving room under D1's 100 for the statement's other four.
  for (const part of chunkRows([...new Set(tokenHashes)], 1.05)) {
    const rows = await db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .innerJoin(
        memberships,
        and(eq(memberships.workspaceId, sessions.workspaceId), eq(memberships.userId, sessions.userId)),
      )
      .where(and(inArray(sessions.tokenHash, part), eq(sessions.workspaceId, workspaceId), ...stillLive(now)))
      .all();
    for (const row of rows) live.add(row.tokenHash);
  }
  return live;
}

/**
 * Restarts the idle clock of these sessions, if still live: a room's sockets pulled with them
 * (a socket pull is a use, as an HTTP pull is; the room batches them once a minute).
 */
export async function touchSessions(db: Db, tokenHashes: string[]): Promise<void> {
  const now = Date.now();
  for (const part of chunkRows([...new Set(tokenHashes)], 1.05)) {
    await db
      .update(sessions)
      .set({ lastUsedAt: now })
      .where(and(inArray(sessions.tokenHash, part), ...stillLive(now)));
  }
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

/**
 * The request's live session, read from its bearer token once per request and kept as
 * `c.var.session` (the route rules read it first: worker/api/route-rules.ts); 401 without one.
 */
export async function authenticate(c: Context<AppEnv>): Promise<SessionInfo> {
  const known = c.get("session");
  if (known) return known;
  const token = bearerToken(c.req.header("Authorization"));
  const session = token
    ? ((isApiTokenSecret(token) ? await apiTokenSession(c, token) : null) ?? (await findSession(c.var.db, token)))
    : null;
  if (!session) throw unauthorized();
  c.set("session", session);
  return session;
}

/** Rejects the request with 401 unless it carries a live session; exposes it as `c.var.session`. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  await authenticate(c);
  await next();
});

/** The user's role in the workspace, or null when they are not a member. */
export async function membershipRole(db: Db, workspaceId: string, userId: string): Promise<string | null> {
  const row = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .get();
  return row?.role ?? null;
}
