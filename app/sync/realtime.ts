import PartySocket from "partysocket";
import { PARTY_NAME, POKE_MESSAGE } from "../../shared/realtime";

/**
 * The live-update socket: one per workspace, to its room, websocket only, authenticated with the
 * session token. Reconnection per SPEC.md section 9 (1 s growing to 5 s, connection timeout 20 s).
 * A poke calls `onPoke`; every (re)connection calls `onConnect`, since pokes may have been missed
 * while the socket was down.
 */
export function connectRoom(
  workspaceId: string,
  token: string,
  handlers: { onPoke: () => void; onConnect: () => void },
): PartySocket {
  const socket = new PartySocket({
    host: window.location.host,
    party: PARTY_NAME,
    room: workspaceId,
    query: { token },
    // 1 s with SPEC.md's randomisation of 0.5, so a restarted Worker is not hit by every client at once.
    minReconnectionDelay: 1000 * (0.5 + Math.random()),
    maxReconnectionDelay: 5000,
    reconnectionDelayGrowFactor: 1.5,
    connectionTimeout: 20_000,
  });
  socket.addEventListener("message", (event) => {
    if (event.data === POKE_MESSAGE) handlers.onPoke();
  });
  socket.addEventListener("open", handlers.onConnect);
  return socket;
}
