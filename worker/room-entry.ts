import { routePartykitRequest } from "partyserver";
import { PARTIES_PREFIX, PARTY_NAME } from "../shared/sync/room-protocol";
import { can } from "../shared/account/roles";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { findSessionByHash, type SessionInfo } from "./auth/session";
import { database, type Db } from "../db/client";
import { realtimeTickets } from "../db/schema";
import { audit } from "./lib/audit";
import { ApiError, errorAnswer } from "./lib/errors";
import { randomToken, sha256Hex } from "./lib/crypto";
import type { Env } from "./env";

const ROOM_PATH = new RegExp(`^/${PARTIES_PREFIX}/${PARTY_NAME}/[^/]+$`);

/** Headers the Worker sets (never the browser) to tell the room whose socket it is. */
export const SESSION_HEADER = "x-fleet-session";
export const USER_HEADER = "x-fleet-user";

/** Refusals are JSON like every other 4xx of the Worker (a browser's websocket only sees the status). */
const refuse = (status: 401 | 403, code: string, message: string) => errorAnswer(new ApiError(status, code, message));

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
    .where(
      and(
        eq(realtimeTickets.ticketHash, await sha256Hex(ticket)),
        isNull(realtimeTickets.usedAt),
        gt(realtimeTickets.expiresAt, now),
      ),
    )
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
