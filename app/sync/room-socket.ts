import PartySocket from "partysocket";
import {
  PARTY_NAME,
  POKE_MESSAGE,
  SESSION_ENDED_CLOSE_CODE,
  type RealtimeTicketResponse,
} from "../../shared/sync/room-protocol";

/**
 * The live-update socket: one per workspace, to its room, websocket only. Before each
 * (re)connection it asks the API for a single-use ticket valid one minute and puts only that in
 * the URL: the long-lived session token never appears in a websocket URL (docs/decisions/0010).
 * Reconnection per docs/product.md section 9 (1 s growing to 5 s, connection timeout 20 s). A poke calls
 * `onPoke`; every (re)connection calls `onConnect`, since pokes may have been missed while the
 * socket was down. A room that closes the socket because its session ended, or an API that no
 * longer issues tickets for the session (401/403), stops the reconnecting for good and calls
 * `onSessionEnded`.
 */
export function connectRoom(
  workspaceId: string,
  token: string,
  handlers: {
    onPoke: () => void;
    onConnect: () => void;
    onClose?: () => void;
    /** Any other message from the room (pull answers, app/sync/socket-pull.ts); true when it was handled. */
    onMessage?: (data: unknown) => boolean;
    onSessionEnded?: () => void;
  },
): PartySocket {
  const socket: PartySocket = new PartySocket({
    // The page's or the sync worker's location (both have one).
    host: globalThis.location.host,
    party: PARTY_NAME,
    room: workspaceId,
    query: async () => {
      const res = await fetch("/api/realtime/ticket", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
      });
      if (res.status === 401 || res.status === 403) {
        socket.close(SESSION_ENDED_CLOSE_CODE, "session ended");
        // No socket exists to report that close (a room may also have closed the last one during
        // its handshake, which arrives with another code): say it here.
        handlers.onSessionEnded?.();
        throw new Error("The session ended; the realtime socket stays closed");
      }
      if (!res.ok) throw new Error(`Realtime ticket failed with status code ${res.status}`);
      const { ticket } = (await res.json()) as RealtimeTicketResponse;
      return { ticket };
    },
    shouldReconnectOnClose: (event) => event.code !== SESSION_ENDED_CLOSE_CODE,
    // 1 s with docs/product.md's randomisation of 0.5, so a restarted Worker is not hit by every client at once.
    minReconnectionDelay: 1000 * (0.5 + Math.random()),
    maxReconnectionDelay: 5000,
    reconnectionDelayGrowFactor: 1.5,
    connectionTimeout: 20_000,
  });
  socket.addEventListener("message", (event) => {
    if (event.data === POKE_MESSAGE) handlers.onPoke();
    else handlers.onMessage?.(event.data);
  });
  socket.addEventListener("open", handlers.onConnect);
  socket.addEventListener("close", (event) => {
    handlers.onClose?.();
    if (event.code === SESSION_ENDED_CLOSE_CODE) handlers.onSessionEnded?.();
  });
  return socket;
}
