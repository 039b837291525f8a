import { describe, expect, it } from "vitest";
import { fuelEntryFlags } from "./fuel-flags";

const entry = (id: string, at: number, volumeLitres: number, odometerMiles: number | null) => ({
  id,
  at,
  volumeLitres,
  odometerMiles,
});

describe("fuelEntryFlags", () => {
  it("flags a fill-up larger than the tank, only once the tank's capacity is known", () => {
    const log = [entry("a", 1, 60, 100), entry("b", 2, 81, 400)];
    expect(fuelEntryFlags(log, 80).get("b")).toEqual(["over_tank"]);
    expect(fuelEntryFlags(log, 80).has("a")).toBe(false);
    expect(fuelEntryFlags(log, null).size).toBe(0);
  });

  it("flags an odometer below one of an earlier fill-up, whatever order the entries come in", () => {
    const log = [entry("c", 3, 40, 350), entry("a", 1, 40, 100), entry("b", 2, 40, 400), entry("d", 4, 40, 420)];
    const flags = fuelEntryFlags(log, null);
    // c reads less than b, logged before it; d is above everything before it again.
    expect([...flags]).toEqual([["c", ["odometer_backwards"]]]);
  });

  it("compares the first entries with the highest odometer logged before them", () => {
    expect([...fuelEntryFlags([entry("a", 5, 40, 900), entry("b", 6, 40, 1100)], null, 1000)]).toEqual([
      ["a", ["odometer_backwards"]],
    ]);
  });

  it("ignores entries with no odometer for the odometer check", () => {
    expect(fuelEntryFlags([entry("a", 1, 40, 500), entry("b", 2, 40, null), entry("c", 3, 40, 600)], 50).size).toBe(0);
  });

  it("can give one entry both flags", () => {
    expect(fuelEntryFlags([entry("a", 1, 40, 500), entry("b", 2, 90, 450)], 80).get("b")).toEqual([
      "over_tank",
      "odometer_backwards",
    ]);
  });
});
