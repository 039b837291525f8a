import { describe, expect, it } from "vitest";
import { keepsFixed, moveBy, moveTo, sameOrder } from "./stop-order";

describe("reordering a vehicle's stops", () => {
  const stops = ["a", "b", "c", "d"];

  it("drags a stop later or earlier, the others keeping their order", () => {
    expect(moveTo(stops, 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(moveTo(stops, 3, 0)).toEqual(["d", "a", "b", "c"]);
  });

  it("drops beyond the ends at the ends, and a drop on its own place changes nothing", () => {
    expect(moveTo(stops, 1, 9)).toEqual(["a", "c", "d", "b"]);
    expect(moveTo(stops, 2, -4)).toEqual(["c", "a", "b", "d"]);
    expect(sameOrder(moveTo(stops, 2, 2), stops)).toBe(true);
  });

  it("moves one step with the buttons, and not past the first or last stop", () => {
    expect(moveBy(stops, 2, -1)).toEqual(["a", "c", "b", "d"]);
    expect(moveBy(stops, 0, -1)).toEqual(stops);
    expect(moveBy(stops, 3, 1)).toEqual(stops);
  });

  it("never changes the list it was given", () => {
    const frozen = Object.freeze([...stops]);
    moveTo(frozen, 0, 3);
    expect(frozen).toEqual(stops);
  });

  it("keeps a finished stop where it is: neither it nor another stop moved past it", () => {
    const done = new Set(["b"]);
    expect(keepsFixed(stops, moveBy(stops, 1, 1), done)).toBe(false);
    expect(keepsFixed(stops, moveBy(stops, 2, -1), done)).toBe(false);
    expect(keepsFixed(stops, moveTo(stops, 3, 0), done)).toBe(false);
    expect(keepsFixed(stops, moveBy(stops, 2, 1), done)).toBe(true);
  });
});
