import { afterEach, describe, expect, it, vi } from "vitest";
import { SocketPulls, type PullSocket } from "./socket-pull";

/** A socket that records what is sent, in the state a test sets. */
function fakeSocket(readyState = 1) {
  const sent: { type: string; id: number; body: unknown }[] = [];
  const socket: PullSocket & { readyState: number } = {
    readyState,
    send: (data) => sent.push(JSON.parse(data) as (typeof sent)[number]),
  };
  return { socket, sent };
}
const READY = JSON.stringify({ type: "pulls-ready" });
const withCookie = { cookie: { order: 3, version: 3, epoch: "e" }, clientGroupID: "g" };

afterEach(() => vi.useRealTimers());

describe("pulls over the room's socket", () => {
  it("go over HTTP until the room says it serves them, and without a cookie (the first, full answer)", async () => {
    const { socket, sent } = fakeSocket();
    const pulls = new SocketPulls(socket);
    expect(await pulls.pull(withCookie)).toBeNull();
    expect(pulls.receive(READY)).toBe(true);
    expect(await pulls.pull({ cookie: null })).toBeNull();
    expect(sent).toEqual([]);
  });

  it("send the body Replicache gave and resolve with the answer of the same id", async () => {
    const { socket, sent } = fakeSocket();
    const pulls = new SocketPulls(socket);
    pulls.receive(READY);
    const first = pulls.pull(withCookie);
    const second = pulls.pull({ ...withCookie, clientGroupID: "h" });
    expect(sent.map((m) => [m.type, m.id, m.body])).toEqual([
      ["pull", 1, withCookie],
      ["pull", 2, { ...withCookie, clientGroupID: "h" }],
    ]);
    const patch = { cookie: { order: 4 }, lastMutationIDChanges: {}, patch: [] };
    expect(
      pulls.receive(JSON.stringify({ type: "pull", id: 2, status: 403, body: { error: { code: "forbidden" } } })),
    ).toBe(true);
    expect(pulls.receive(JSON.stringify({ type: "pull", id: 1, status: 200, body: patch }))).toBe(true);
    expect(await first).toEqual({ status: 200, body: patch });
    expect(await second).toEqual({ status: 403, body: { error: { code: "forbidden" } } });
  });

  it("fall back to HTTP when the room says so, when the socket closes, or when no answer comes in time", async () => {
    vi.useFakeTimers();
    const { socket } = fakeSocket();
    const pulls = new SocketPulls(socket, 1_000);
    pulls.receive(READY);
    const told = pulls.pull(withCookie);
    pulls.receive(JSON.stringify({ type: "pull", id: 1, viaHttp: true }));
    expect(await told).toBeNull();

    const late = pulls.pull(withCookie);
    vi.advanceTimersByTime(1_000);
    expect(await late).toBeNull();
    // An answer after the fallback changes nothing.
    expect(pulls.receive(JSON.stringify({ type: "pull", id: 2, status: 200, body: {} }))).toBe(true);

    const cut = pulls.pull(withCookie);
    pulls.abandonAll();
    expect(await cut).toBeNull();
    // A new connection must say it is ready again.
    expect(await pulls.pull(withCookie)).toBeNull();
  });

  it("leave pokes and anything else to other handlers", () => {
    const pulls = new SocketPulls(fakeSocket().socket);
    expect(pulls.receive("poke")).toBe(false);
    expect(pulls.receive("{not json")).toBe(false);
    expect(pulls.receive(JSON.stringify({ type: "other" }))).toBe(false);
  });

  it("never send over a socket that is not open", async () => {
    const { socket, sent } = fakeSocket(3);
    const pulls = new SocketPulls(socket);
    pulls.receive(READY);
    expect(await pulls.pull(withCookie)).toBeNull();
    expect(sent).toEqual([]);
  });
});
