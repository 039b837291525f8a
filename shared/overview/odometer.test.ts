import { describe, expect, it } from "vitest";
import { consistentReadings, milesBetween, odometerAt } from "./odometer";

const HOUR = 3_600_000;
const at = (hours: number, miles: number) => ({ at: hours * HOUR, miles });

describe("odometer between readings", () => {
  it("rises evenly between two readings and stands still outside them", () => {
    const readings = [at(10, 1000), at(20, 1100)];
    expect(odometerAt(readings, 15 * HOUR)).toBe(1050);
    expect(odometerAt(readings, 5 * HOUR)).toBe(1000);
    expect(odometerAt(readings, 30 * HOUR)).toBe(1100);
    expect(odometerAt([], 0)).toBeNull();
  });

  it("counts the miles of a span from the readings around its edges", () => {
    const readings = [at(0, 1000), at(10, 1200), at(20, 1300)];
    expect(milesBetween(readings, 5 * HOUR, 15 * HOUR)).toBe(150);
    // A span the readings do not reach counts nothing rather than a guess.
    expect(milesBetween(readings, 30 * HOUR, 40 * HOUR)).toBe(0);
    expect(milesBetween([at(0, 1000)], 0, 10 * HOUR)).toBe(0);
  });

  it("drops a reading that goes backwards or jumps further than a vehicle drives", () => {
    // A fill-up typed a digit short, then a dashboard odometer far above the tracker's GPS one.
    const readings = [at(0, 1000), at(10, 120), at(20, 1400), at(21, 45_000), at(30, 1900)];
    expect(consistentReadings(readings)).toEqual([at(0, 1000), at(20, 1400), at(30, 1900)]);
    expect(milesBetween(readings, 0, 30 * HOUR)).toBe(900);
  });

  it("takes readings in any order", () => {
    expect(milesBetween([at(10, 1200), at(0, 1000)], 0, 10 * HOUR)).toBe(200);
  });
});
