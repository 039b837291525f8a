import { describe, expect, it } from "vitest";
import { alertRuleBodySchema } from "../../shared/alerts/alert-rules";
import { fuelChangeLitres } from "../../shared/fleet/vehicle-event";
import { detectFuel } from "../../domain/fuel/fuel-tracks";
import { DEMO_FUEL_DROP_RULE, DROP_HOURS_AGO, overnightReports } from "./demo-fuel-drop";

// The demo's night (issue 42): what the fuel watch makes of it is what the demo's Inbox shows.
const NOW = Date.parse("2026-11-27T09:00:00Z");
const TANK_LITRES = 98.4; // the first demo vehicle's 26 gallons (scripts/sim/demo-fuel.ts)

describe("the demo's overnight fuel drop", () => {
  const night = overnightReports("d1", { latitude: 41.88, longitude: -87.63 }, 1_000_000, NOW);

  it("is one fuel drop, dated when it began, large enough for the demo's rule", () => {
    const found = detectFuel(
      night.map(({ time, fuel, speed, latitude, longitude }) => ({ time, fuel, speed, latitude, longitude })),
    );
    expect(found.map((e) => e.type)).toEqual(["FUEL_DROP"]);
    const [drop] = found;
    expect(Math.abs(drop!.start - (NOW - DROP_HOURS_AGO * 3_600_000))).toBeLessThanOrEqual(15 * 60_000);
    const litres = fuelChangeLitres({ fuelFrom: drop!.from, fuelTo: drop!.to }, TANK_LITRES)!;
    expect(litres).toBeGreaterThanOrEqual(DEMO_FUEL_DROP_RULE.minLitres);
    expect(alertRuleBodySchema.safeParse(DEMO_FUEL_DROP_RULE).success).toBe(true);
  });

  it("ends before the demo starts, the vehicle standing where the simulator picks it up", () => {
    expect(night.at(-1)!.time).toBeLessThan(NOW);
    expect(new Set(night.map((r) => `${r.latitude},${r.longitude},${r.speed}`)).size).toBe(1);
  });
});
