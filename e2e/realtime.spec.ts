import { expect, test } from "./fixtures";
import PartySocket from "partysocket";
import WebSocket from "ws";
import { encodeMessage, PARTY_NAME, POKE_MESSAGE } from "../shared/sync/room-protocol";
import { newFleetAccount } from "./helpers";

/**
 * The realtime room on the running Worker (wrangler dev), reached the way any client reaches it:
 * a websocket through partysocket to /parties/workspace-room/<workspaceId>, here from Node with
 * `ws` as its WebSocket.
 */
test.describe("realtime room on the running Worker", () => {
  const sockets: PartySocket[] = [];
  test.afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  async function ticketFor(token: string) {
    const res = await fetch(new URL("/api/realtime/ticket", baseUrl), {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { ticket: string }).ticket;
  }
  let baseUrl = "";
  test.beforeEach(({ baseURL }) => {
    baseUrl = baseURL!;
  });

  function join(baseURL: string, room: string, token: string) {
    const socket = new PartySocket({
      host: new URL(baseURL).host,
      party: PARTY_NAME,
      room,
      // A fresh single-use ticket per connection: the session token never goes into the URL.
      query: async () => ({ ticket: await ticketFor(token) }),
      WebSocket,
      maxRetries: 0,
    });
    sockets.push(socket);
    const messages: string[] = [];
    socket.addEventListener("message", (event) => messages.push(String(event.data)));
    const opened = new Promise<void>((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("error", () => reject(new Error("socket failed")), { once: true });
    });
    return { socket, messages, opened };
  }

  test("a partysocket client receives the poke the Worker sends after a write in its workspace", async ({
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request, "Realtime Fleet");
    const other = await newFleetAccount(request, "Other Fleet");
    const mine = join(baseURL!, fleet.workspaceId, fleet.token);
    const theirs = join(baseURL!, other.workspaceId, other.token);
    await Promise.all([mine.opened, theirs.opened]);
    // The room answers a socket pull (an empty one: the HTTP route's 400), so the socket works end
    // to end before the write.
    const emptyPull = (id: number) => encodeMessage({ type: "pull", id, body: {} });
    const answered = (messages: string[], id: number) =>
      messages.some((m) => m.startsWith(`{"type":"pull","id":${id},`));
    mine.socket.send(emptyPull(1));
    await expect.poll(() => answered(mine.messages, 1)).toBe(true);

    const order = await request.post("/api/beacons/order", {
      headers: { Authorization: `Bearer ${fleet.token}` },
      data: { workspaceId: fleet.workspaceId, count: 1 },
    });
    expect(order.status()).toBeLessThan(300);
    await expect.poll(() => mine.messages).toContain(POKE_MESSAGE);

    // The other workspace's room heard nothing: a round trip through it shows only its greeting
    // (it serves pulls on this socket) and the answer to its own pull, no poke.
    theirs.socket.send(emptyPull(2));
    await expect.poll(() => answered(theirs.messages, 2)).toBe(true);
    expect(theirs.messages).toHaveLength(2);
    expect(theirs.messages[0]).toBe(JSON.stringify({ type: "pulls-ready" }));
    expect(theirs.messages).not.toContain(POKE_MESSAGE);
  });

  test("the running Worker refuses a socket with another workspace's ticket, none, or a session token in the URL", async ({
    request,
    baseURL,
  }) => {
    const fleet = await newFleetAccount(request);
    const other = await newFleetAccount(request);
    const status = (query: string) =>
      new Promise<number>((resolve, reject) => {
        const url = `${baseURL!.replace(/^http/, "ws")}/parties/${PARTY_NAME}/${fleet.workspaceId}${query}`;
        const ws = new WebSocket(url);
        ws.on("unexpected-response", (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on("open", () => {
          resolve(101);
          ws.close();
        });
        ws.on("error", reject);
      });
    expect(await status(`?ticket=${await ticketFor(other.token)}`)).toBe(403);
    expect(await status("")).toBe(401);
    expect(await status(`?token=${fleet.token}`)).toBe(401);
    expect(await status(`?ticket=${fleet.token}`)).toBe(401);
    expect(await status(`?ticket=${await ticketFor(fleet.token)}`)).toBe(101);
  });
});
