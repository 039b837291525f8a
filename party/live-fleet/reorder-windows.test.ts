import { describe, expect, it } from "vitest";
import { EMPTY_WINDOW } from "../../domain/fold/late-reports";
import { ReorderWindows } from "./reorder-windows";

// The object's reorder windows stay bounded whatever the fleet does: in number, and in time.
describe("ReorderWindows", () => {
  it("gives a vehicle new here no window while the object is full, and keeps those it holds", () => {
    const windows = new ReorderWindows(2, 60_000);
    windows.set("a", EMPTY_WINDOW, 0);
    windows.set("b", EMPTY_WINDOW, 1);
    windows.set("c", EMPTY_WINDOW, 2);
    expect([windows.get("a"), windows.get("b"), windows.get("c")]).toEqual([EMPTY_WINDOW, EMPTY_WINDOW, undefined]);
    windows.set("a", EMPTY_WINDOW, 3); // one it holds is kept up to date
    expect(windows.size).toBe(2);
  });

  it("drops the windows not used for the idle time, which makes room", () => {
    const windows = new ReorderWindows(2, 60_000);
    windows.set("a", EMPTY_WINDOW, 0);
    windows.set("b", EMPTY_WINDOW, 50_000);
    windows.set("c", EMPTY_WINDOW, 70_000); // a is idle: dropped, c takes its place
    expect([windows.get("a"), windows.get("b"), windows.get("c")]).toEqual([undefined, EMPTY_WINDOW, EMPTY_WINDOW]);
    windows.set("b", EMPTY_WINDOW, 100_000); // used again: kept, and now last to go
    windows.set("d", EMPTY_WINDOW, 140_000); // c is idle
    expect([windows.get("b"), windows.get("c"), windows.get("d")]).toEqual([EMPTY_WINDOW, undefined, EMPTY_WINDOW]);
  });
});
