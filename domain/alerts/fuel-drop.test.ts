import { describe, expect, it } from "vitest";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { FuelEventChange } from "../fuel/level-watch";
import { emptyAlertState, evaluateAlerts, type AlertOutput, type AlertState } from "./evaluate";

const rule = (minLitres?: number): AlertRule => ({ id: "r1", type: "fuel_drop", ...(minLitres && { minLitres }) });
const drop = (to: number, end: number | null = null): FuelEventChange => ({
  id: "e1",
  type: "FUEL_DROP",
  start: 1_000,
  end,
  from: 70,
  to,
  latitude: 41.9,
  longitude: -87.6,
});
const fix = (time: number) => ({ time, latitude: 41.9, longitude: -87.6, speed: 0, ignition: false });

/** Feeds one fuel event version per fix (an empty list for none); every alert output, in order. */
function run(rules: AlertRule[], seen: (FuelEventChange | null)[], tankLitres: number | null = 80) {
  let state: AlertState = emptyAlertState();
  const out: AlertOutput[] = [];
  seen.forEach((e, i) => {
    const step = evaluateAlerts(state, "v1", fix(2_000 + i * 60_000), [], rules, {
      events: e ? [e] : [],
      tankLitres,
    });
    state = step.state;
    out.push(...step.alerts);
  });
  return out;
}

describe("the fuel_drop rule", () => {
  it("opens one alert as the drop reaches minLitres, then only raises its peak and ends it", () => {
    // 80 L tank: 6.4 L, 16 L, 20 L (the alert opens), 22.4 L, then 24 L and the drop ends.
    const out = run([rule(20)], [drop(62), null, drop(50), drop(45), null, drop(42), drop(40, 500_000)]);
    expect(out.map((o) => o.kind)).toEqual(["open", "close", "close"]);
    expect(new Set(out.map((o) => o.alert.id)).size).toBe(1);
    expect(out[0]!.alert).toMatchObject({ type: "fuel_drop", at: 1_000, peak: 20, endAt: null });
    expect(out.at(-1)!.alert).toMatchObject({ peak: 24, endAt: 500_000 });
  });

  it("raises nothing for a drop below the minimum, or a refuel, or when the tank is unknown", () => {
    expect(run([rule(30)], [drop(62), drop(45, 9_000)])).toEqual([]);
    expect(run([rule()], [{ ...drop(90), type: "REFUEL" }])).toEqual([]);
    expect(run([rule(5)], [drop(40)], null)).toEqual([]);
  });

  it("without a minimum, raises every drop, a second drop a second alert", () => {
    const second = { ...drop(30), id: "e2", start: 900_000, from: 40 };
    const out = run([rule()], [drop(60), null, second], null);
    expect(out.filter((o) => o.kind === "open").map((o) => o.alert.at)).toEqual([1_000, 900_000]);
    expect(out[0]!.alert.peak).toBeNull();
  });
});
