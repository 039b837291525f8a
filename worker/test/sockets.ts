import { expect } from "vitest";
import { encodeMessage, parseRoomMessage } from "../../shared/sync/room-protocol";
import { call } from "./factories";

/** A websocket to a workspace room, as a browser holds it, with what the room sent it. */
export interface Client {
  socket: WebSocket;
  messages: string[];
  /** The close code once the room closed the socket. */
  closedWith: number | null;
}

const open: WebSocket[] = [];
/** Keeps a socket a test accepted itself, to be closed with the others. */
export const keepOpen = (socket: WebSocket) => open.push(socket);

/** Closes every socket a test opened (call in afterEach). */
export function closeSockets() {
  for (const socket of open.splice(0)) socket.close();
}

export const roomPath = (workspaceId: string, ticket?: string) =>
  `/parties/workspace-room/${workspaceId}${ticket === undefined ? "" : `?ticket=${encodeURIComponent(ticket)}`}`;

/** A websocket upgrade through the Worker's own fetch handler (the path partysocket takes). */
export const upgrade = (workspaceId: string, ticket?: string, query = "") =>
  call(`${roomPath(workspaceId, ticket)}${query}`, { headers: { Upgrade: "websocket" } });

/** What the browser does before each (re)connection: a single-use ticket for its session. */
export async function ticketFor(token: string) {
  const res = await call("/api/realtime/ticket", { method: "POST", token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { ticket: string }).ticket;
}

export async function connect(workspaceId: string, token: string): Promise<Client> {
  const res = await upgrade(workspaceId, await ticketFor(token));
  expect(res.status).toBe(101);
  const socket = res.webSocket!;
  socket.accept();
  open.push(socket);
  const messages: string[] = [];
  const client: Client = { socket, messages, closedWith: null };
  socket.addEventListener("message", (event) => {
    messages.push(String(event.data));
  });
  socket.addEventListener("close", (event) => {
    client.closedWith = event.code;
  });
  return client;
}

let roundTrips = 1_000_000;

/**
 * A round trip through the room: everything the room sent this socket before has arrived. It
 * sends a real message, a socket pull with an empty body, which the room answers on the same
 * socket with the HTTP route's 400 and touches nothing (the room answers messages in order).
 */
export async function roundTrip(client: Client) {
  const id = roundTrips++;
  client.socket.send(encodeMessage({ type: "pull", id, body: {} }));
  const answered = () =>
    client.messages.some((m) => {
      const a = parseRoomMessage(m);
      return a?.type === "pull" && a.id === id;
    });
  await expect.poll(answered).toBe(true);
}
