import { describe, expect, it } from "vitest";
import { nextCookie, readCookie, resetCookie } from "./cookie";
import { incrementalOp, resetReason } from "./pull-rules";

// The pull's pure rules (docs/decisions/0003-sync.md): what a cookie says, when a pull must reset,
// what cookie it answers with, and which deleted rows the client is told about. The same rules
// run through D1 in worker/sync/sync.worker.test.ts and sync-lifetime.worker.test.ts.
const ws = { version: 40, syncEpoch: "e1", tombstoneFloor: 10, acks: 0 };
const ours = (version: number, epoch = "e1", order = version) => readCookie({ order, version, epoch });

describe("reading a cookie", () => {
  it("takes our object cookie, and a bare number from before cookies were objects as version = order in the first epoch", () => {
    expect(readCookie({ order: 12, version: 9, epoch: "e1" })).toEqual({
      kind: "ours",
      cookie: { order: 12, version: 9, epoch: "e1" },
    });
    expect(readCookie(7)).toEqual({ kind: "ours", cookie: { order: 7, version: 7, epoch: "" } });
    expect(readCookie(null)).toEqual({ kind: "none" });
  });

  it("treats anything it cannot diff from as foreign, keeping a numeric order to reset above", () => {
    expect(readCookie("v7")).toEqual({ kind: "foreign", order: 0 });
    expect(readCookie(-3)).toEqual({ kind: "foreign", order: -3 });
    expect(readCookie(2.5)).toEqual({ kind: "foreign", order: 2.5 });
    // order below version cannot be one of ours (order only ever adds an offset).
    expect(readCookie({ order: 3, version: 9, epoch: "e1" })).toEqual({ kind: "foreign", order: 3 });
    expect(readCookie({ order: 9, version: 9 } as never)).toEqual({ kind: "foreign", order: 9 });
  });
});

describe("when a pull resets", () => {
  it("diffs from a cookie of this epoch between the tombstone floor and the workspace's version", () => {
    expect(resetReason(ours(10), ws)).toBeNull();
    expect(resetReason(ours(40), ws)).toBeNull();
  });

  it("resets a first pull and a foreign cookie", () => {
    expect(resetReason(readCookie(null), ws)).toBe("first");
    expect(resetReason(readCookie("x"), ws)).toBe("foreign");
  });

  it("calls a cookie from another epoch, or ahead of the workspace, restored", () => {
    expect(resetReason(ours(20, "e0"), ws)).toBe("restored");
    expect(resetReason(ours(41), ws)).toBe("restored");
  });

  it("resets a cookie older than the collected tombstones, which could miss a delete", () => {
    expect(resetReason(ours(9), ws)).toBe("too-old");
  });
});

describe("the answer's cookie", () => {
  it("carries the client's order offset on through incremental answers, so order only grows", () => {
    const restoredOnce = { order: 105, version: 5, epoch: "e1" };
    expect(nextCookie(restoredOnce, 9, "e1")).toEqual({ order: 109, version: 9, epoch: "e1" });
  });

  it("raises order by one when the workspace's acks moved (ids acknowledged at an unchanged version), once", () => {
    const before = { order: 12, version: 10, epoch: "e1" };
    const acked = nextCookie(before, 10, "e1", 3);
    expect(acked).toEqual({ order: 13, version: 10, epoch: "e1", acks: 3 });
    expect(nextCookie(acked, 10, "e1", 3)).toEqual(acked);
    expect(nextCookie(acked, 11, "e1", 3)).toEqual({ order: 14, version: 11, epoch: "e1", acks: 3 });
    expect(readCookie(acked)).toEqual({ kind: "ours", cookie: acked });
    expect(readCookie({ ...acked, acks: -1 }).kind).toBe("foreign");
    expect(resetCookie(readCookie(acked), 11, "e1", 4)).toEqual({ order: 14, version: 11, epoch: "e1", acks: 4 });
  });

  it("orders a reset above anything the client had, even when the server's version went down", () => {
    expect(resetCookie(ours(50, "e0"), 40, "e1")).toEqual({ order: 51, version: 40, epoch: "e1" });
    expect(resetCookie(readCookie(null), 40, "e1")).toEqual({ order: 40, version: 40, epoch: "e1" });
    expect(resetCookie(readCookie(2.5), 1, "e1").order).toBe(3);
  });
});

describe("what an incremental answer says about a changed row", () => {
  it("puts a live row", () => {
    expect(incrementalOp({ deleted: false, createdVersion: 35 }, 30)).toBe("put");
  });

  it("deletes a row the client may hold: created at or before its cookie, or of unknown age", () => {
    expect(incrementalOp({ deleted: true, createdVersion: 30 }, 30)).toBe("del");
    expect(incrementalOp({ deleted: true, createdVersion: 12 }, 30)).toBe("del");
    expect(incrementalOp({ deleted: true, createdVersion: null }, 30)).toBe("del");
  });

  it("says nothing of a row created and deleted since the cookie: it was never the client's", () => {
    expect(incrementalOp({ deleted: true, createdVersion: 31 }, 30)).toBeNull();
  });
});
