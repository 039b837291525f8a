import { z } from "zod";

/** The realtime room's URL scheme (PartyKit's): /parties/<party>/<workspaceId>. */
export const PARTY_NAME = "workspace-room";
export const PARTIES_PREFIX = "parties";

/**
 * The room's bare-text message "something in your workspace changed, pull" (every other message it
 * sends is a JSON RoomMessage below).
 */
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
export const socketPullRequestSchema = z.object({
  type: z.literal("pull"),
  id: z.number().int().safe(),
  /** Exactly the body Replicache sends to POST /api/sync/pull (the room validates it as that route does). */
  body: z.unknown(),
});
export type SocketPullRequest = z.infer<typeof socketPullRequestSchema>;

const socketPullAnswerSchema = z.union([
  z.object({ type: z.literal("pull"), id: z.number().int().safe(), viaHttp: z.literal(true) }),
  z.object({ type: z.literal("pull"), id: z.number().int().safe(), status: z.number().int(), body: z.unknown() }),
]);
export type SocketPullAnswer = z.infer<typeof socketPullAnswerSchema>;

/**
 * The room's first message on every socket: it serves SocketPullRequests there. Until a socket has
 * said so (a room of an older deploy never does), the browser pulls over HTTP.
 */
const socketPullsReadySchema = z.object({ type: z.literal("pulls-ready") });
export type SocketPullsReady = z.infer<typeof socketPullsReadySchema>;

/** Every JSON message the room sends on a socket. */
export const roomMessageSchema = z.union([socketPullsReadySchema, socketPullAnswerSchema]);
export type RoomMessage = z.infer<typeof roomMessageSchema>;

/** JSON text checked against `schema`, or null when it is not JSON or not of that shape. */
function parseJsonMessage<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, data: unknown): T | null {
  if (typeof data !== "string" || !data.startsWith("{")) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A message from the room as the browser reads it: a RoomMessage, or null (a poke, anything else). */
export const parseRoomMessage = (data: unknown): RoomMessage | null => parseJsonMessage(roomMessageSchema, data);

/** A socket message as the room reads it: a SocketPullRequest no larger than the answers' limit, or null. */
export const parseSocketPullRequest = (data: unknown): SocketPullRequest | null =>
  typeof data === "string" && data.length <= SOCKET_PULL_MAX_BYTES
    ? parseJsonMessage(socketPullRequestSchema, data)
    : null;

/** The text of a message to the room or from it (typed, so each side sends only what the other parses). */
export const encodeMessage = (message: SocketPullRequest | RoomMessage): string => JSON.stringify(message);

/** Cloudflare limits websocket messages to 1 MiB; larger pull answers go over HTTP. */
export const SOCKET_PULL_MAX_BYTES = 512 * 1024;
