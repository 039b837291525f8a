import { describe, expect, it } from "vitest";
import {
  encodeMessage,
  parseRoomMessage,
  parseSocketPullRequest,
  POKE_MESSAGE,
  SOCKET_PULL_MAX_BYTES,
} from "./room-protocol";

describe("the room's messages, as the browser reads them", () => {
  it("accepts each kind the room sends", () => {
    const ready = { type: "pulls-ready" } as const;
    const answer = { type: "pull", id: 3, status: 200, body: { cookie: { order: 4 }, patch: [] } } as const;
    const refusal = { type: "pull", id: 4, status: 403, body: { error: { code: "forbidden" } } } as const;
    const viaHttp = { type: "pull", id: 5, viaHttp: true } as const;
    for (const message of [ready, answer, refusal, viaHttp])
      expect(parseRoomMessage(encodeMessage(message))).toEqual(message);
  });

  it("refuses what is not one of them", () => {
    const refused: unknown[] = [
      POKE_MESSAGE,
      "{not json",
      JSON.stringify(null),
      JSON.stringify({ type: "other" }),
      JSON.stringify({ type: "pull", status: 200, body: {} }),
      JSON.stringify({ type: "pull", id: "1", status: 200, body: {} }),
      JSON.stringify({ type: "pull", id: 1.5, status: 200, body: {} }),
      JSON.stringify({ type: "pull", id: 1 }),
      JSON.stringify({ type: "pull", id: 1, status: "200", body: {} }),
      JSON.stringify({ type: "pull", id: 1, viaHttp: false }),
      new ArrayBuffer(8),
      undefined,
    ];
    for (const data of refused) expect(parseRoomMessage(data)).toBeNull();
  });
});

describe("a socket pull request, as the room reads it", () => {
  it("is accepted with its body as Replicache sent it", () => {
    const request = { type: "pull", id: 7, body: { cookie: { order: 3 }, clientGroupID: "g" } } as const;
    expect(parseSocketPullRequest(encodeMessage(request))).toEqual(request);
  });

  it("is refused when malformed, not text, or larger than a pull answer may be", () => {
    const refused: unknown[] = [
      "ping",
      "{not json",
      JSON.stringify({ type: "pulls-ready" }),
      JSON.stringify({ type: "pull", body: {} }),
      JSON.stringify({ type: "pull", id: Number.MAX_SAFE_INTEGER + 2, body: {} }),
      JSON.stringify({ type: "pull", id: -0.5, body: {} }),
      JSON.stringify({ type: "pull", id: 1, body: { cookie: "x".repeat(SOCKET_PULL_MAX_BYTES) } }),
      new Uint8Array([123, 125]),
    ];
    for (const data of refused) expect(parseSocketPullRequest(data)).toBeNull();
  });
});
