import PartySocket from "partysocket";
import { PARTY_NAME, POKE_MESSAGE } from "../../shared/realtime";

/**
 * The live-update socket: one per workspace, to its room, websocket only, authenticated with the
 * session token. Reconnection per SPEC.md section 9 (1 s growing to 5 s, connection timeout 20 s).
 * Every poke, and every (re)connection, makes the client pull.
 */
export function connectRoom(workspaceId: string, token: string, onChange: () => void): PartySocket {
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
    if (event.data === POKE_MESSAGE) onChange();
  });
  // After a disconnect we may have missed pokes: catch up on every (re)connection.
  socket.addEventListener("open", onChange);
  return socket;
}
