/** The realtime room's URL scheme (PartyKit's): /parties/<party>/<workspaceId>. */
export const PARTY_NAME = "workspace-room";
export const PARTIES_PREFIX = "parties";

/** The only message the room sends: "something in your workspace changed, pull". */
export const POKE_MESSAGE = "poke";

/**
 * The close code a room uses when the socket's session was revoked (or its member removed): the
 * browser should not reconnect with it (a 4xxx code is the application's own range).
 */
export const SESSION_ENDED_CLOSE_CODE = 4001;

/** POST /api/realtime/ticket answers this; the ticket goes into the socket URL as `ticket`. */
export interface RealtimeTicketResponse {
  ticket: string;
  /** Epoch ms; the ticket opens one socket before then. */
  expiresAt: number;
  workspaceId: string;
}

/**
 * Incremental pulls over the room's socket (docs/decisions/0013): the browser already holds an
 * authenticated socket to its workspace's room, which already holds the shared part of every pull,
 * so a pull sent there costs no HTTP request, no session lookup and no D1 read of its own. The
 * browser sends a `SocketPullRequest` (JSON text) only when it has a cookie; the room answers with
 * a `SocketPullAnswer` of the same `id`: the status and body the HTTP route (POST /api/sync/pull)
 * would have answered, or `viaHttp` when the answer is one the socket should not carry (a full
 * reset, or larger than SOCKET_PULL_MAX_BYTES): the browser then makes that pull over HTTP.
 * Pokes stay the bare string POKE_MESSAGE; everything else the room sends is a JSON object.
 */
export interface SocketPullRequest {
  type: "pull";
  id: number;
  /** Exactly the body Replicache sends to POST /api/sync/pull. */
  body: unknown;
}
export type SocketPullAnswer =
  | { type: "pull"; id: number; status: number; body: unknown }
  | { type: "pull"; id: number; viaHttp: true };

/**
 * The room's first message on every socket: it serves SocketPullRequests there. Until a socket has
 * said so (a room of an older deploy never does), the browser pulls over HTTP.
 */
export interface SocketPullsReady {
  type: "pulls-ready";
}

/** Cloudflare limits websocket messages to 1 MiB; larger pull answers go over HTTP. */
export const SOCKET_PULL_MAX_BYTES = 512 * 1024;
