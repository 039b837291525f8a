import { describe, expect, it } from "vitest";
import { assignFleet } from "./fleet";
import { cities } from "./routes";

const beacons = Array.from({ length: 12 }, (_, i) => ({
  id: `beacon-${String(i).padStart(2, "0")}-xxxxxxxx`,
  vehicleId: `v${i}`,
}));

describe("fleet assignment", () => {
  it("spreads a dozen vehicles over every city and route, with every report form", () => {
    const fleet = assignFleet(beacons, 0);
    expect(new Set(fleet.map((a) => a.city))).toEqual(new Set(cities.map((c) => c.name)));
    expect(new Set(fleet.map((a) => `${a.city}/${a.route}`)).size).toBe(12);
    expect(new Set(fleet.map((a) => a.form))).toEqual(new Set(["query", "form", "json"]));
  });

  it("gives each beacon the same route and device kind whatever order the API lists them in", () => {
    const key = (list: typeof beacons) =>
      Object.fromEntries(assignFleet(list, 0).map((a) => [a.beacon.id, [a.route, a.form, a.vehicle.fuel]]));
    expect(key([...beacons].reverse())).toEqual(key(beacons));
  });
});
