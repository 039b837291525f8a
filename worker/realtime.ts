import { getServerByName, routePartykitRequest } from "partyserver";
import type { ApiErrorBody } from "../shared/api";
import { PARTIES_PREFIX, PARTY_NAME } from "../shared/realtime";
import { can } from "../shared/roles";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { findSessionByHash, type SessionInfo } from "./auth/session";
import { database, type Db } from "./db/client";
import { realtimeTickets } from "./db/schema";
import { audit } from "./lib/audit";
import { randomToken, sha256Hex } from "./lib/crypto";
import type { Env } from "./env";

const ROOM_PATH = new RegExp(`^/${PARTIES_PREFIX}/${PARTY_NAME}/[^/]+$`);

/** Headers the Worker sets (never the browser) to tell the room whose socket it is. */
export const SESSION_HEADER = "x-fleet-session";
export const USER_HEADER = "x-fleet-user";

/** Refusals are JSON like every other 4xx of the Worker (a browser's websocket only sees the status). */
const refuse = (status: 401 | 403, code: string, message: string) =>
  Response.json({ error: { code, message } } satisfies ApiErrorBody, { status, headers: { "Cache-Control": "no-store" } });

/** A socket ticket lives one minute and opens one socket (docs/decisions/0010). */
export const TICKET_TTL_MS = 60_000;

/** Issues a ticket for this session's socket; only its hash is stored. Old tickets are swept here. */
export async function issueTicket(db: Db, sessionHash: string): Promise<{ ticket: string; expiresAt: number }> {
  const ticket = randomToken(32);
  const now = Date.now();
  const expiresAt = now + TICKET_TTL_MS;
  await db.batch([
    db.delete(realtimeTickets).where(lt(realtimeTickets.expiresAt, now - TICKET_TTL_MS)),
    db.insert(realtimeTickets).values({ ticketHash: await sha256Hex(ticket), sessionHash, expiresAt }),
  ]);
  return { ticket, expiresAt };
}

/** Spends a ticket (one guarded statement, so two sockets cannot share it): its live session, or null. */
async function redeemTicket(db: Db, ticket: string): Promise<SessionInfo | null> {
  if (!ticket || ticket.length > 200) return null;
  const now = Date.now();
  const claimed = await db
    .update(realtimeTickets)
    .set({ usedAt: now })
    .where(and(eq(realtimeTickets.ticketHash, await sha256Hex(ticket)), isNull(realtimeTickets.usedAt), gt(realtimeTickets.expiresAt, now)))
    .returning({ sessionHash: realtimeTickets.sessionHash })
    .get();
  return claimed ? findSessionByHash(db, claimed.sessionHash) : null;
}

/**
 * Routes /parties/workspace-room/<workspaceId> to the workspace's room. A socket is only let in
 * with a ticket (query `ticket`: browsers cannot set headers on websockets, and a ticket is
 * single-use and expires in a minute, so the URL carries nothing worth stealing) whose session is
 * live and names that very workspace. The room learns the session and user from headers set here,
 * so it can close the socket when the session ends. Plain HTTP requests to rooms are refused; any
 * other path under /parties answers null (the caller's 404).
 */
export async function routeRealtime(request: Request, env: Env): Promise<Response | null> {
  if (!ROOM_PATH.test(new URL(request.url).pathname)) return null;
  return routePartykitRequest(request, env, {
    onBeforeConnect: async (req, lobby) => {
      const ticket = new URL(req.url).searchParams.get("ticket");
      const session = ticket ? await redeemTicket(database(env.DB), ticket) : null;
      if (!session) return refuse(401, "unauthorized", "Sign in to continue");
      if (session.workspaceId !== lobby.name || !can(session.role, "workspace.view")) {
        audit("tenant.access_refused", { userId: session.userId, workspaceId: lobby.name, via: "realtime" });
        return refuse(403, "forbidden", "This session is for another workspace");
      }
      const forwarded = new Request(req);
      forwarded.headers.set(SESSION_HEADER, session.tokenHash);
      forwarded.headers.set(USER_HEADER, session.userId);
      return forwarded;
    },
    onBeforeRequest: () => refuse(403, "forbidden", "Rooms only accept websockets"),
  });
}

/** Closes the workspace room's sockets opened by these sessions (they were just revoked). */
export async function closeSessionSockets(env: Env, workspaceId: string, sessionHashes: string[]): Promise<void> {
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.closeSessions(sessionHashes);
}

/** Closes every socket of a user removed from (or leaving) the workspace. */
export async function closeWorkspaceUser(env: Env, workspaceId: string, userId: string): Promise<void> {
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.closeUser(userId);
}

/**
 * Tells every client of the workspace to pull. Call after the write has committed.
 *
 * A busy fleet commits many writes a second, and each poke is two RPCs to the room (naming it,
 * then poking). The room coalesces anyway, so this isolate sends at most one poke per
 * workspace every WORKER_POKE_INTERVAL_MS: the first at once (latency), later ones folded into
 * a single trailing poke that goes out after them, so the last change is always announced.
 *
 * Requests share plain data only, never promises: workerd ties a promise to the request that made
 * it, and another request awaiting it hangs. The request that schedules the trailing poke owns it
 * (its waitUntil keeps it alive); a later caller only sees that one is pending and returns.
 */
export const WORKER_POKE_INTERVAL_MS = 50;
const lastPokeAt = new Map<string, number>();
const trailingPending = new Set<string>();

export async function pokeWorkspace(env: Env, workspaceId: string): Promise<void> {
  if (trailingPending.has(workspaceId)) return; // not sent yet, so it will announce this write too
  const wait = (lastPokeAt.get(workspaceId) ?? 0) + WORKER_POKE_INTERVAL_MS - Date.now();
  if (wait > 0) {
    trailingPending.add(workspaceId);
    try {
      await new Promise((resolve) => setTimeout(resolve, wait));
    } finally {
      trailingPending.delete(workspaceId);
    }
  }
  await sendPoke(env, workspaceId);
}

async function sendPoke(env: Env, workspaceId: string): Promise<void> {
  lastPokeAt.set(workspaceId, Date.now());
  if (lastPokeAt.size > 10_000) lastPokeAt.clear(); // a hint, not state: forgetting it only costs a poke
  const room = await getServerByName(env.WorkspaceRoom, workspaceId);
  await room.poke();
}
