import { describe, expect, it } from "vitest";
import commute from "../../worker/fleet/fixtures/commute";
import dataGap from "../../worker/fleet/fixtures/data-gap";
import longIdle from "../../worker/fleet/fixtures/long-idle";
import phoneDrive from "../../worker/fleet/fixtures/phone-drive";
import tow from "../../worker/fleet/fixtures/tow";
import { readTrack } from "../../worker/fleet/fixtures/csv-track";
import { fuelChangeLitres } from "../../shared/fleet/vehicle-event";
import { detectFuel, parkedNight, withFuel, type Injection } from "./fuel-tracks";
import type { FuelReading } from "./level-watch";

const TRACKS = { commute, dataGap, longIdle, phoneDrive, tow };
const TANK_LITRES = 80;
const points = (csv: string): Omit<FuelReading, "fuel">[] =>
  readTrack(csv).map(({ time, latitude, longitude, speed }) => ({ time, latitude, longitude, speed }));

/** The times of each stretch of standing readings at least `minutes` long. */
function standing(track: Omit<FuelReading, "fuel">[], minutes: number): number[][] {
  const stretches: number[][] = [];
  let current: number[] = [];
  for (const p of [...track, null]) {
    if (p && (p.speed ?? 0) <= 1) {
      current.push(p.time);
      continue;
    }
    if (current.length && current.at(-1)! - current[0]! >= minutes * 60_000) stretches.push(current);
    current = [];
  }
  return stretches;
}

/**
 * A refuel (+40 points in 2 min) or a drop (-20 points in 3 min) into each long stop, in turn,
 * once the tracker has sent three readings of it (what the watch needs to know the level before)
 * and at least 90 s after it stopped.
 */
function injectionsFor(track: Omit<FuelReading, "fuel">[]): Injection[] {
  return standing(track, 6).map((times, i) => {
    const at = Math.max(times[0]! + 90_000, times[3]! + 1);
    return i % 2 === 0 ? { at, points: 40, minutes: 2 } : { at, points: -20, minutes: 3 };
  });
}

describe("refuels and fuel drops on recorded tracks", () => {
  for (const [name, csv] of Object.entries(TRACKS)) {
    const track = points(csv);

    it(`finds nothing on the untouched ${name} track, whatever the noise`, () => {
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) expect(detectFuel(withFuel(track, { seed }))).toEqual([]);
    });

    it(`finds every refuel and drop injected into the ${name} track, with its litres`, () => {
      const injections = injectionsFor(track);
      for (const seed of [1, 2, 3, 4]) {
        const found = detectFuel(withFuel(track, { seed, start: 45, injections }));
        expect(found.map((e) => e.type)).toEqual(injections.map((j) => (j.points > 0 ? "REFUEL" : "FUEL_DROP")));
        found.forEach((e, i) => {
          const injected = injections[i]!;
          // Dated where the level last stood before the change, to within the median's lag.
          expect(e.start).toBeGreaterThanOrEqual(injected.at - 3 * 60_000);
          expect(e.start).toBeLessThanOrEqual(injected.at + 3 * 60_000);
          const litres = fuelChangeLitres({ fuelFrom: e.from, fuelTo: e.to }, TANK_LITRES)!;
          expect(Math.abs(litres - (Math.abs(injected.points) / 100) * TANK_LITRES)).toBeLessThan(6);
        });
      }
    });
  }

  it("has long enough stops in the tracks to inject into", () => {
    const count = Object.values(TRACKS).reduce((n, csv) => n + injectionsFor(points(csv)).length, 0);
    expect(count).toBeGreaterThanOrEqual(5);
  });
});

describe("a night parked", () => {
  const night = parkedNight(10, 5);
  const twoAm = Date.parse("2026-10-21T02:00:00Z");

  it("finds a tank losing 30 % overnight, dated when it began, and ended when it stopped", () => {
    const found = detectFuel(withFuel(night, { start: 70, injections: [{ at: twoAm, points: -30, minutes: 20 }] }));
    expect(found).toHaveLength(1);
    const [drop] = found;
    expect(drop!.type).toBe("FUEL_DROP");
    // A reading every 5 minutes: dated to within the median's lag of three of them.
    expect(drop!.start).toBeGreaterThanOrEqual(twoAm - 15 * 60_000);
    expect(drop!.start).toBeLessThanOrEqual(twoAm + 15 * 60_000);
    expect(drop!.end).not.toBeNull();
    expect(drop!.from - drop!.to).toBeGreaterThan(25);
  });

  it("does not call an engine idling all night a drop, nor a slow seep of 3 points an hour", () => {
    expect(detectFuel(withFuel(night, { start: 70 }))).toEqual([]);
    const seep: Injection[] = [{ at: twoAm, points: -12, minutes: 240 }];
    expect(detectFuel(withFuel(night, { start: 70, injections: seep }))).toEqual([]);
  });

  it("ignores one wild reading, and a tracker that sends no level", () => {
    const readings = withFuel(night, { start: 70, seed: 3 });
    readings[40] = { ...readings[40]!, fuel: 5 };
    expect(detectFuel(readings)).toEqual([]);
    expect(detectFuel(night.map((p) => ({ ...p, fuel: null })))).toEqual([]);
  });
});

describe("while driving", () => {
  it("never compares sloshing levels: a tank swinging 30 points on the move is no event", () => {
    const drive = Array.from({ length: 200 }, (_, i) => ({
      time: i * 10_000,
      latitude: 40 + i * 0.001,
      longitude: -74,
      speed: 15,
      fuel: 50 + (i % 2 ? 15 : -15),
    }));
    expect(detectFuel(drive)).toEqual([]);
  });

  it("ends a refuel under way when the vehicle drives off", () => {
    const still = (i: number, fuel: number) => ({ time: i * 30_000, latitude: 40, longitude: -74, speed: 0, fuel });
    const levels = [20, 20, 20, 20, 20, 40, 60, 80, 80, 80, 80];
    const readings = levels.map((fuel, i) => still(i, fuel));
    readings.push({ time: 11 * 30_000, latitude: 40.01, longitude: -74, speed: 12, fuel: 80 });
    const [refuel] = detectFuel(readings);
    expect(refuel!.type).toBe("REFUEL");
    expect(refuel!.from).toBe(20);
    expect(refuel!.to).toBe(80);
    // The median of five reaches 80 at the tenth reading: the refuel ends there, not when it drove off.
    expect(refuel!.end).toBe(9 * 30_000);
  });
});
