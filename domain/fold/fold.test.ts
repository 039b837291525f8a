import { describe, expect, it } from "vitest";
import { DEFAULT_CLOCK_BOUNDS } from "./device-clock";
import {
  foldReport,
  newVehicleFold,
  type AcceptedFix,
  type FleetModule,
  type Fix,
  type FoldContext,
  type VehicleFold,
} from "./fold";

const T0 = Date.parse("2026-11-03T08:00:00Z");
const NOW = T0 + 3_600_000;
const fix = (i: number, fields: Partial<Fix> = {}): Fix => ({
  time: T0 + i * 10_000,
  latitude: 40 + i * 0.0015, // ~165 m north every 10 s: driving
  longitude: -74,
  speed: 15,
  heading: 0,
  accuracy: 5,
  ignition: true,
  fuel: null,
  odometer: null,
  ...fields,
});

function run(fixes: Fix[], ctx: Partial<FoldContext> = {}, start: VehicleFold = newVehicleFold("v1", "w1")) {
  let ids = 0;
  const context: FoldContext = { now: NOW, clock: DEFAULT_CLOCK_BOUNDS, newId: () => `e${++ids}`, ...ctx };
  let vehicle = start;
  const outputs = fixes.map((f) => {
    const step = foldReport(vehicle, f, context);
    vehicle = step.vehicle;
    return step.outputs;
  });
  return { vehicle, outputs };
}

describe("folding a vehicle's reports", () => {
  it("shows the latest fix, opens the first trip once, counts GPS distance and turns the beacon ACTIVE once", () => {
    const { vehicle, outputs } = run([fix(0), fix(1), fix(2)]);
    expect(outputs.map((o) => o.outcome)).toEqual(["stored", "stored", "stored"]);
    expect(outputs.map((o) => o.activated)).toEqual([true, false, false]);
    expect(outputs.map((o) => o.opened)).toEqual([["e1"], [], []]);
    expect(vehicle.latest).toMatchObject({
      status: "moving",
      latitude: fix(2).latitude,
      recordedAt: fix(2).time,
      speed: 15,
    });
    // Two steps of ~167 m each, counted by the GPS odometer (the device sends none).
    expect(vehicle.latest!.odometer).toBeGreaterThan(320);
    expect(vehicle.latest!.odometer).toBeLessThan(345);
    expect(vehicle.motion!.current).toMatchObject({ id: "e1", type: "TRANSIT" });
  });

  it("keeps a late report in the history without moving the vehicle back", () => {
    const { vehicle, outputs } = run([fix(0), fix(2), fix(1)]);
    expect(outputs[2]).toMatchObject({ outcome: "late", keep: true, events: [] });
    expect(vehicle.latest!.recordedAt).toBe(fix(2).time);
  });

  it("acknowledges a report from a clock far ahead without using it, and says by how much", () => {
    const ahead = fix(0, { time: NOW + 10 * 365 * 86_400_000 });
    const { vehicle, outputs } = run([ahead]);
    expect(outputs[0]).toMatchObject({ outcome: "clock_ahead", keep: false, activated: false });
    expect(outputs[0]!.skewMs).toBe(ahead.time - NOW);
    expect(vehicle.latest).toBeNull();
  });

  it("keeps the last known fuel when a report carries none", () => {
    const { vehicle } = run([fix(0, { fuel: 42 }), fix(1)]);
    expect(vehicle.latest!.fuel).toBe(42);
  });
});

describe("plugged modules", () => {
  /** Counts each vehicle's accepted fixes and writes the count as a row every fix. */
  const counter: FleetModule<{ n: number }> = {
    name: "counter",
    step: (state, accepted: AcceptedFix) => {
      const n = (state?.n ?? 0) + 1;
      return {
        state: { n },
        rows: [{ table: "counts", row: { vehicleId: accepted.vehicleId, n, status: accepted.after.status } }],
      };
    },
  };

  it("fold every accepted fix into their own per-vehicle state and return rows for D1", () => {
    const { vehicle, outputs } = run([fix(0), fix(1)], { modules: [counter] });
    expect(vehicle.modules).toEqual({ counter: { n: 2 } });
    expect(outputs.flatMap((o) => o.rows)).toEqual([
      { table: "counts", row: { vehicleId: "v1", n: 1, status: "moving" } },
      { table: "counts", row: { vehicleId: "v1", n: 2, status: "moving" } },
    ]);
  });

  it("never see a late or clock-rejected report", () => {
    const ahead = fix(5, { time: NOW + 86_400_000 });
    const { vehicle, outputs } = run([fix(0), fix(2), fix(1), ahead], { modules: [counter] });
    expect(vehicle.modules).toEqual({ counter: { n: 2 } });
    expect(outputs.flatMap((o) => o.rows)).toHaveLength(2);
  });

  it("carry on from the state stored with the vehicle", () => {
    const stored = { ...newVehicleFold("v1", "w1"), modules: { counter: { n: 41 } } };
    const { vehicle } = run([fix(0)], { modules: [counter] }, stored);
    expect(vehicle.modules).toEqual({ counter: { n: 42 } });
  });
});
