import { describe, expect, it } from "vitest";
import type { FuelFlag } from "./fuel";
import { LITRES_PER_US_GALLON } from "../units/units";
import { economyOutliers, fleetFuelEconomy, fuelEconomy, storedStretchesOf, type EconomyEntry } from "./fuel-economy";

const gal = (g: number) => g * LITRES_PER_US_GALLON;
let n = 0;
/** A fill-up on day `day`: gallons, full or not, the odometer, flags. */
const fill = (day: number, gallons: number, odometerMiles: number | null, fullTank = true, flags: FuelFlag[] = []) =>
  ({
    id: `e${++n}`,
    at: day * 86_400_000,
    volumeLitres: gal(gallons),
    fullTank,
    odometerMiles,
    flags,
  }) satisfies EconomyEntry;

describe("fuelEconomy", () => {
  it("counts full tank to full tank, a partial fill carried into the next full one", () => {
    const log = [fill(1, 10, 1000), fill(2, 5, 1150, false), fill(3, 10, 1300), fill(4, 10, 1550)];
    // 300 mi on 15 gal, then 250 mi on 10 gal: 550 mi on 25 gal.
    expect(fuelEconomy(log)).toEqual({
      mpg: 22,
      litresPer100Km: 10.7,
      distanceMiles: 550,
      volumeLitres: Math.round(gal(25) * 100) / 100,
      entriesUsed: 3,
      entriesFlagged: 0,
    });
  });

  it("leaves out a stretch with a flagged fill-up or a missing odometer, and says how many were flagged", () => {
    const log = [
      fill(1, 10, 1000),
      fill(2, 30, 1200, true, ["over_tank"]),
      fill(3, 10, 1400),
      fill(4, 10, null),
      fill(5, 10, 1800),
    ];
    const e = fuelEconomy(log);
    // Only 1200 -> 1400 stands: its opening entry's own volume is not part of it.
    expect(e).toMatchObject({ mpg: 20, distanceMiles: 200, entriesUsed: 1, entriesFlagged: 1 });
  });

  it("ignores what comes before the first full tank, and answers nulls with nothing to count", () => {
    expect(fuelEconomy([fill(1, 5, 900, false), fill(2, 10, 1000)])).toMatchObject({ mpg: null, entriesUsed: 0 });
  });

  it("counts the stretches that close in the range, one may open before it", () => {
    const log = [fill(1, 10, 1000), fill(10, 10, 1200), fill(20, 10, 1500)];
    expect(fuelEconomy(log, { from: 5 * 86_400_000, to: 15 * 86_400_000 })).toMatchObject({
      distanceMiles: 200,
      entriesUsed: 1,
    });
  });

  it("flags a stretch far from the vehicle's usual economy and leaves it out", () => {
    // Four stretches at 20 mpg, one at 60 mpg (a missed fill-up, say).
    const log = [
      fill(1, 10, 0),
      fill(2, 10, 200),
      fill(3, 10, 400),
      fill(4, 10, 600),
      fill(5, 10, 800),
      fill(6, 10, 1400),
    ];
    expect(economyOutliers(log)).toEqual(new Set([log[5]!.id]));
    expect(fuelEconomy(log)).toMatchObject({ mpg: 20, distanceMiles: 800, entriesUsed: 4, entriesFlagged: 1 });
  });

  it("judges no outlier with too few stretches to know the usual", () => {
    expect(economyOutliers([fill(1, 10, 0), fill(2, 10, 200), fill(3, 10, 1000)]).size).toBe(0);
  });
});

describe("fleetFuelEconomy", () => {
  it("sums the vehicles' distance over their fuel, not a mean of their figures", () => {
    const at20 = fuelEconomy([fill(1, 10, 0), fill(2, 10, 200), fill(3, 10, 400)]);
    const at40 = fuelEconomy([fill(1, 5, 0), fill(2, 5, 200), fill(3, 5, 400)]);
    expect([at20.mpg, at40.mpg]).toEqual([20, 40]);
    // 800 miles on 30 gallons: 26.7 mpg (a mean would say 30).
    expect(fleetFuelEconomy([at20, at40])).toMatchObject({ mpg: 26.7, distanceMiles: 800, entriesUsed: 4 });
    expect(fleetFuelEconomy([]).mpg).toBeNull();
  });
});

describe("storedStretchesOf", () => {
  it("keeps what the log alone decides: sums, largest fill, doubtful on an odometer missing or backwards, the rate of the rest", () => {
    const log = [
      fill(1, 10, 1000),
      fill(2, 5, 1150, false),
      fill(3, 10, 1300),
      fill(4, 10, null),
      fill(5, 10, 1800),
      fill(6, 10, 1700),
      fill(7, 10, 2000),
    ].map(({ flags: _, ...e }) => e);
    const stretches = storedStretchesOf([...log].reverse());
    expect(stretches.map((s) => [s.closeId, s.miles, s.doubtful, s.highestBefore])).toEqual([
      [log[2]!.id, 300, false, 1150],
      [log[3]!.id, 0, true, 1300],
      [log[4]!.id, 0, true, 1300],
      [log[5]!.id, -100, true, 1800],
      // Opened by the fill-up that went backwards: doubtful too, as economy treats it.
      [log[6]!.id, 300, true, 1800],
    ]);
    expect(stretches[0]!.litres).toBeCloseTo(gal(15));
    expect(stretches[0]!.largestLitres).toBeCloseTo(gal(10));
    expect(stretches[0]!.rate).toBeCloseTo(300 / gal(15));
    expect(stretches.slice(1).map((s) => s.rate)).toEqual([null, null, null, null]);
  });

  it("is what fuelEconomy counts when nothing beyond the log is flagged", () => {
    const log = [fill(1, 10, 1000), fill(2, 12, 1300), fill(3, 9, 1550), fill(4, 11, 1900)];
    const clean = storedStretchesOf(log).filter((s) => s.rate !== null);
    const miles = clean.reduce((m, s) => m + s.miles, 0);
    expect(fuelEconomy(log).distanceMiles).toBe(miles);
  });
});
