import { describe, expect, it } from "vitest";
import { BeaconSlots, BEACON_STATES, FLOATS_PER_SLOT, SELECTED } from "./beacon-slots";

const slotsOf = (n: number) => {
  const s = new BeaconSlots();
  s.rebase([0.2, 0.4], 1000);
  for (let i = 0; i < n; i++) s.place(`v${i}`, 0.2 + i * 1e-4, 0.4, "moving", 1000, false);
  s.takeDirty();
  return s;
};

describe("beacon slots", () => {
  it("rewrites only the slot of a vehicle that reported", () => {
    const s = slotsOf(100);
    s.place("v42", 0.3, 0.41, "moving", 2000, true);
    expect(s.takeDirty()).toEqual([[42, 1]]);
    expect(s.takeDirty()).toEqual([]);
    s.place("v7", 0.3, 0.41, "parked", 2000, true);
    s.place("v8", 0.3, 0.41, "moving", 2000, true);
    s.place("v50", 0.3, 0.41, "moving", 2000, true);
    expect(s.takeDirty()).toEqual([
      [7, 2],
      [50, 1],
    ]);
  });

  it("glides from where the beacon is drawn now, mid-glide included, relative to the origin and epoch in float32", () => {
    const s = slotsOf(1);
    s.place("v0", 0.3, 0.4, "moving", 2000, true);
    expect(s.positionAt(0, 2000)).toEqual([0.2, 0.4]);
    const [midX] = s.positionAt(0, 6000);
    expect(midX).toBeCloseTo(0.25, 12);
    s.place("v0", 0.2, 0.4, "moving", 6000, true); // turns back halfway
    expect(s.positionAt(0, 6000)[0]).toBeCloseTo(0.25, 12);
    expect(s.positionAt(0, 20_000)[0]).toBeCloseTo(0.2, 12);
    const g = s.gpu.subarray(0, FLOATS_PER_SLOT);
    expect(g[0]).toBeCloseTo(0.05, 7); // from, relative to the origin
    expect(g[2]).toBeCloseTo(0, 7); // to
    expect(g[4]).toBe(5); // glide start: 5 s after the epoch
    expect(s.glideEndOf(0)).toBe(14_000);
  });

  it("shows a first position without gliding to it", () => {
    const s = slotsOf(0);
    s.place("new", 0.3, 0.4, "parked", 5000, true);
    expect(s.positionAt(0, 5000)).toEqual([0.3, 0.4]);
    expect(s.glideEndOf(0)).toBeLessThan(5000);
    expect(s.stateAt(0)).toBe(BEACON_STATES.parked);
  });

  it("marks the selected vehicle, and unmarks the previous one", () => {
    const s = slotsOf(3);
    s.select("v1");
    expect(s.stateAt(1)).toBe(BEACON_STATES.moving + SELECTED);
    s.select("v2");
    expect([s.stateAt(1), s.stateAt(2)]).toEqual([BEACON_STATES.moving, BEACON_STATES.moving + SELECTED]);
    s.setState("v2", "inactive");
    expect(s.stateAt(2)).toBe(BEACON_STATES.inactive + SELECTED);
    expect(s.takeDirty()).toEqual([[1, 2]]);
  });

  it("fills a removed vehicle's slot with the last one, leaving no gap", () => {
    const s = slotsOf(5);
    s.remove("v1");
    expect(s.size).toBe(4);
    expect(s.idAt(1)).toBe("v4");
    expect(s.slotOf("v4")).toBe(1);
    expect(s.has("v1")).toBe(false);
    expect(s.takeDirty()).toEqual([[1, 1]]);
  });

  it("asks for a whole upload after growing or moving its origin, and then only for changes again", () => {
    const s = slotsOf(64);
    s.place("v64", 0.1, 0.1, "moving", 1000, false); // past the first 64 slots: the buffer grows
    expect(s.takeDirty()).toBe("all");
    s.rebase([0.1, 0.1], 5000);
    expect(s.takeDirty()).toBe("all");
    expect(s.gpu[64 * FLOATS_PER_SLOT]).toBe(0);
    s.place("v3", 0.1, 0.1, "moving", 6000, true);
    expect(s.takeDirty()).toEqual([[3, 1]]);
  });
});
