import { describe, expect, it } from "vitest";
import { seededRandom } from "./random";
import { cities } from "./routes";
import { followPump, type FillUpMade, type PumpStop } from "./refuel-stops";
import { litresOf } from "./demo-fill-ups";
import { advance, createVehicle, type SimVehicle } from "./vehicle";

const T0 = Date.parse("2026-11-02T08:00:00Z");
const STEP = 4_000;

describe("the demo's fill-ups (followPump)", () => {
  it("makes one fill-up per stop at the pump, dated when the pump started, with the points it added", () => {
    const random = seededRandom(7);
    // Low on fuel: the first stop is at the pump.
    let v: SimVehicle = { ...createVehicle("dev-7", cities[0]!.routes[0]!.line, random, T0), fuel: 21 };
    let open: PumpStop | null = null;
    const made: FillUpMade[] = [];
    let pumpStops = 0;
    for (let t = T0 + STEP; t <= T0 + 3 * 3_600_000; t += STEP) {
      const before = v;
      v = advance(v, t, random);
      if (v.phase.kind === "parked" && v.phase.refuel && !(before.phase.kind === "parked" && before.phase.refuel))
        pumpStops++;
      const step = followPump(open, v);
      open = step.open;
      if (step.made) made.push(step.made);
    }
    expect(pumpStops).toBeGreaterThan(0);
    expect(made.length).toBe(pumpStops - (open ? 1 : 0));
    for (const m of made) {
      expect(m.percentAdded).toBeGreaterThan(50);
      expect(m.at).toBeGreaterThan(T0);
    }
  });
});

describe("the litres a demo driver logs (litresOf)", () => {
  const made = (odometerMiles: number, percentAdded = 70) => ({
    at: T0,
    percentAdded,
    odometer: odometerMiles * 1609.344,
  });
  it("are the miles since the last fill-up at the vehicle's usual economy", () => {
    // 85 miles at 17 mpg: 5 gallons.
    expect(litresOf(made(10_085), 17, 10_000, 98)).toBeCloseTo(5 * 3.785411784, 1);
  });
  it("are the share of the tank added with no fill-up before, and never more than the tank", () => {
    expect(litresOf(made(10_000, 50), 17, null, 80)).toBe(40);
    expect(litresOf(made(12_000), 17, 10_000, 80)).toBe(76);
  });
});
