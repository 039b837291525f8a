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
