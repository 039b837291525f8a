import type { Connection } from "partyserver";
import {
  encodeMessage,
  parseSocketPullRequest,
  SOCKET_PULL_MAX_BYTES,
  type SocketPullRequest,
} from "../../shared/sync/room-protocol";
import type { Db } from "../../db/client";
import { AnswerOverHttp, type RoomSync } from "../room-sync";
import { takeMessage, TOO_MANY_MESSAGES } from "./message-rate";
import type { RoomSockets, SocketOwner } from "./sockets";

/** What a socket pull is answered with: the room's sync server, D1, and its shared reads. */
export interface SocketPullRoom<Changes> {
  workspaceId: string;
  db(): Db;
  sync: Pick<RoomSync<Changes>, "answerPull">;
  changesSince(workspaceId: string, since: number): Promise<Changes>;
}

/**
 * A message from a socket: past its rate the socket is closed; a socket pull is answered on the
 * same socket, and its session counts as used (party/room/sockets.ts).
 */
export async function answerSocketMessage<Changes>(
  room: SocketPullRoom<Changes>,
  sockets: RoomSockets,
  connection: Connection<SocketOwner>,
  message: string | ArrayBuffer | ArrayBufferView,
): Promise<void> {
  if (!takeMessage(connection)) return connection.close(TOO_MANY_MESSAGES, "Too many messages");
  const request = parseSocketPullRequest(message);
  const owner = connection.state;
  if (!request || !owner) return;
  const { reply, answered } = await answerSocketPull(room, owner, request);
  if (answered) sockets.used(owner.sessionHash);
  // The socket may have closed meanwhile (its session ended, the browser left): nobody to tell.
  if (connection.readyState === WebSocket.OPEN) connection.send(reply);
}

/**
 * An incremental pull over the socket (shared/sync/room-protocol.ts, docs/decisions/0013), answered as the
 * HTTP route would for the socket's own session and this room's workspace (nothing in the message
 * can name another), from the room's shared read: no session lookup and, in the steady state, no
 * D1 statement of its own. What the socket should not carry goes back to HTTP: a first pull, a
 * reset (a full answer), an answer too large for a message, and a failure on our side.
 * Answers the message to send, and whether the pull was answered here (the session was used).
 */
export async function answerSocketPull<Changes>(
  room: SocketPullRoom<Changes>,
  owner: SocketOwner,
  { id, body }: SocketPullRequest,
): Promise<{ reply: string; answered: boolean }> {
  const viaHttp = { reply: encodeMessage({ type: "pull", id, viaHttp: true }), answered: false };
  const cookie = typeof body === "object" && body !== null ? (body as { cookie?: unknown }).cookie : undefined;
  if (cookie === null || cookie === undefined) return viaHttp;
  try {
    const { status, body: answer } = await room.sync.answerPull(
      room.db(),
      { userId: owner.userId, workspaceId: room.workspaceId },
      body,
      (workspaceId, since) => room.changesSince(workspaceId, since),
    );
    const patch = status === 200 ? (answer as { patch?: { op: string }[] }).patch : undefined;
    if (patch?.[0]?.op === "clear") return { ...viaHttp, answered: true };
    // Serialised once: measured, then sent as it is.
    const reply = encodeMessage({ type: "pull", id, status, body: answer });
    const fits = new TextEncoder().encode(reply).byteLength <= SOCKET_PULL_MAX_BYTES;
    return { reply: fits ? reply : viaHttp.reply, answered: true };
  } catch (error) {
    if (!(error instanceof AnswerOverHttp)) console.error("socket pull failed; the client pulls over HTTP:", error);
    return viaHttp;
  }
}
