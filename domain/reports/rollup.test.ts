import { describe, expect, it } from "vitest";
import { seededRandom } from "../../scripts/sim/random";
import { cities } from "../../scripts/sim/routes";
import { advance as advanceSim, createVehicle, reportOf } from "../../scripts/sim/vehicle";
import { endOfDay, startOfDay } from "../../shared/units/time-zone";
import { mphToMetresPerSecond } from "../../shared/units/units";
import commute from "../../worker/fleet/fixtures/commute";
import dataGap from "../../worker/fleet/fixtures/data-gap";
import longIdle from "../../worker/fleet/fixtures/long-idle";
import phoneDrive from "../../worker/fleet/fixtures/phone-drive";
import tow from "../../worker/fleet/fixtures/tow";
import { advance, initialState, type MotionState } from "../fold/motion";
import { parseOsmandParams } from "../devices/osmand";
import { rollupFixes, type DayRollup, type EventRollup, type RollupFix } from "./rollup";

type Fix = Omit<RollupFix, "event">;

/** A recorded CSV track through the real OsmAnd parser, every field a tracker sent. */
function readFixes(csv: string): Fix[] {
  const [header, ...lines] = csv.trim().split("\n");
  const columns = header!.split(",");
  return lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    const r = parseOsmandParams({ id: "recorded", timestamp: params.time ?? params.timestamp!, ...params });
    return {
      time: r.time,
      latitude: r.latitude,
      longitude: r.longitude,
      speed: r.speed,
      ignition: r.ignition,
      accuracy: r.accuracy,
      odometer: r.odometer,
      fuel: r.fuel,
    };
  });
}

/** Each fix with the event the timeline's detector has open after it, as ingestion passes it. */
function withEvents(fixes: Fix[]): RollupFix[] {
  let n = 0;
  const newId = () => `e${String(++n).padStart(4, "0")}`;
  let state: MotionState | null = null;
  return fixes.map((fix) => {
    state = state ? advance(state, fix, newId).state : initialState(fix, newId).state;
    const { id, type, startTime } = state.current;
    return { ...fix, event: { id, type, startTime } };
  });
}

const sum = <T>(rows: T[], value: (row: T) => number) => rows.reduce((total, row) => total + value(row), 0);
const tripMetres = (events: EventRollup[]) =>
  sum(
    events.filter((e) => e.type !== "STOP"),
    (e) => e.distanceMetres,
  );
const dayMetres = (rows: DayRollup[]) => sum(rows, (r) => r.distanceMetres);

describe("day rollups on recorded tracks", () => {
  for (const [name, csv] of Object.entries({ commute, longIdle, tow, dataGap, phoneDrive })) {
    it(`${name}: the days' distance is the sum of the trips' within 1 %`, () => {
      const { rows, events } = rollupFixes(null, withEvents(readFixes(csv)), "America/Chicago");
      expect(dayMetres(rows)).toBeGreaterThan(1000);
      expect(Math.abs(dayMetres(rows) - tripMetres(events)) / dayMetres(rows)).toBeLessThan(0.01);
    });
  }

  it("commute: distance is the vehicle page's GPS odometer; driving, idling, trips and stops as driven", () => {
    const fixes = withEvents(readFixes(commute));
    const { rows, state } = rollupFixes(null, fixes, "America/Chicago");
    expect(rows.map((r) => r.day)).toEqual(["2026-10-13"]);
    const [day] = rows;
    expect(day!.distanceMetres).toBeCloseTo(state.gps.metres, 3);
    expect(day!.trips).toBe(2);
    expect(day!.stops).toBe(3);
    // About 10 minutes on the road; a minute warming up, 40 s at a red light, a little at the coffee shop.
    expect(day!.drivingSeconds / 60).toBeGreaterThan(8);
    expect(day!.drivingSeconds / 60).toBeLessThan(12);
    expect(day!.idlingSeconds).toBeGreaterThanOrEqual(60);
    expect(day!.idlingSeconds).toBeLessThan(300);
    expect(day!.maxSpeed).toBeGreaterThan(day!.movingMetres / day!.drivingSeconds);
  });

  it("long idle: 20 minutes standing with the engine on are idling time, in the stop's own figures too", () => {
    const { rows, events } = rollupFixes(null, withEvents(readFixes(longIdle)), "America/Los_Angeles");
    expect(rows[0]!.idlingSeconds / 60).toBeGreaterThan(19);
    expect(rows[0]!.idlingSeconds / 60).toBeLessThan(23);
    const stop = events.find((e) => e.type === "STOP" && e.idlingSeconds > 0)!;
    expect(stop.idlingSeconds / 60).toBeGreaterThan(19);
  });

  it("data gap: the 75 silent minutes count no time, and GPS distance does not jump across them", () => {
    const { rows } = rollupFixes(null, withEvents(readFixes(dataGap)), "America/Chicago");
    expect(rows[0]!.drivingSeconds / 60).toBeLessThan(15);
  });

  it("folding a track in several batches gives the same days as in one", () => {
    const fixes = withEvents(readFixes(commute));
    const whole = rollupFixes(null, fixes, "America/Chicago");
    let state = null;
    const rows = new Map<string, DayRollup>();
    for (let i = 0; i < fixes.length; i += 7) {
      const part = rollupFixes(state, fixes.slice(i, i + 7), "America/Chicago");
      state = part.state;
      for (const row of part.rows) rows.set(row.day, row);
    }
    expect([...rows.values()]).toEqual(whole.rows);
    // A repeated fix (a retry) changes nothing.
    expect(rollupFixes(whole.state, fixes.slice(-3), "America/Chicago").rows).toEqual([]);
  });
});

/** A straight drive east at a steady speed, a fix every `every` ms, with the given ignition. */
function steady(
  from: number,
  to: number,
  mph: number,
  every = 10_000,
  ignition = true,
  odometerPerFix: number | null = null,
): RollupFix[] {
  const speed = mphToMetresPerSecond(mph);
  const fixes: RollupFix[] = [];
  for (let t = from, i = 0; t <= to; t += every, i++) {
    const metres = (speed * (t - from)) / 1000;
    fixes.push({
      time: t,
      latitude: 41.9,
      longitude: -87.6 + metres / 83_000,
      speed,
      ignition,
      accuracy: 5,
      odometer: odometerPerFix === null ? null : 1_000_000 + i * odometerPerFix,
      fuel: null,
      event: { id: speed > 1 ? "trip" : "stop", type: speed > 1 ? "TRANSIT" : "STOP", startTime: from },
    });
  }
  return fixes;
}

describe("days in the workspace's time zone", () => {
  it("a drive across local midnight is split between the two days, in proportion to time", () => {
    // 23:50 to 00:10 in Chicago (05:50 to 06:10 UTC, in winter).
    const from = Date.parse("2026-01-15T05:50:00Z");
    const { rows, events } = rollupFixes(null, steady(from, from + 20 * 60_000, 30), "America/Chicago");
    expect(rows.map((r) => r.day)).toEqual(["2026-01-14", "2026-01-15"]);
    expect(rows[0]!.drivingSeconds).toBeCloseTo(600, 6);
    expect(rows[1]!.drivingSeconds).toBeCloseTo(600, 6);
    expect(rows[0]!.distanceMetres).toBeCloseTo(rows[1]!.distanceMetres, -1);
    expect(dayMetres(rows)).toBeCloseTo(tripMetres(events), 6);
    expect(rows[0]!.trips + rows[1]!.trips).toBe(1);
  });

  it("the fall-back day holds 25 hours of idling and the spring-forward day 23", () => {
    const tz = "America/Chicago";
    for (const [day, hours] of [
      ["2026-11-01", 25],
      ["2026-03-08", 23],
    ] as const) {
      const from = startOfDay(day, tz) - 3_600_000;
      const fixes = steady(from, endOfDay(day, tz) + 3_600_000, 0, 60_000);
      const { rows } = rollupFixes(null, fixes, tz);
      expect(rows.find((r) => r.day === day)!.idlingSeconds).toBe(hours * 3600);
    }
  });

  it("the same fixes fall on other days in another zone", () => {
    const from = Date.parse("2026-01-15T05:50:00Z");
    expect(rollupFixes(null, steady(from, from + 20 * 60_000, 30), "UTC").rows.map((r) => r.day)).toEqual([
      "2026-01-15",
    ]);
  });
});

describe("odometer, speeding and fuel", () => {
  it("a device's own odometer wins over the GPS distance", () => {
    const from = Date.parse("2026-01-15T15:00:00Z");
    const { rows } = rollupFixes(null, steady(from, from + 600_000, 30, 10_000, true, 200), "UTC");
    // 60 intervals of 200 m by the device's count (GPS says about 134 m each).
    expect(rows[0]!.distanceMetres).toBeCloseTo(60 * 200, 6);
  });

  it("speeding episodes: each climb over 70 mph is one, hovering around the line is one", () => {
    const from = Date.parse("2026-01-15T15:00:00Z");
    const speeds = [60, 72, 69, 71, 74, 62, 60, 75, 76, 60];
    const fixes = speeds.map((mph, i) => ({
      ...steady(from, from, mph)[0]!,
      time: from + i * 10_000,
      event: { id: "t", type: "TRANSIT" as const, startTime: from },
    }));
    const { rows } = rollupFixes(null, fixes, "UTC");
    expect(rows[0]!.speedingEpisodes).toBe(2);
    expect(rows[0]!.maxSpeed).toBeCloseTo(mphToMetresPerSecond(76), 6);
  });

  it("fuel used is the sum of the level's drops; a refill is not negative use", () => {
    const from = Date.parse("2026-01-15T15:00:00Z");
    const levels = [80, 79, 78.5, 95, 94];
    const fixes = levels.map((fuel, i) => ({ ...steady(from, from, 30)[0]!, time: from + i * 10_000, fuel }));
    expect(rollupFixes(null, fixes, "UTC").rows[0]!.fuelUsedPercent).toBeCloseTo(2.5, 6);
    expect(rollupFixes(null, steady(from, from + 60_000, 30), "UTC").rows[0]!.fuelUsedPercent).toBeNull();
  });
});

describe("day rollups on the simulator's fleet", () => {
  it("8 hours of a simulated vehicle, a report every 10 s: the days' distance is the trips' within 1 % and the odometer's", () => {
    const start = Date.parse("2026-10-20T12:00:00Z");
    const random = seededRandom(7);
    for (const route of cities.slice(0, 3).map((c) => c.routes[0]!.line)) {
      let vehicle = createVehicle("sim", route, random, start);
      const fixes: Fix[] = [];
      for (let t = start; t <= start + 8 * 3_600_000; t += 10_000) {
        vehicle = advanceSim(vehicle, t, random);
        const r = reportOf(vehicle);
        fixes.push({
          time: r.time,
          latitude: r.latitude,
          longitude: r.longitude,
          speed: r.speed,
          ignition: r.ignition,
          accuracy: r.accuracy,
          odometer: r.odometer,
          fuel: r.fuel,
        });
      }
      const { rows, events } = rollupFixes(null, withEvents(fixes), "America/Chicago");
      const driven = fixes.at(-1)!.odometer! - fixes[0]!.odometer!;
      expect(driven).toBeGreaterThan(20_000);
      expect(dayMetres(rows)).toBeCloseTo(driven, -1);
      expect(Math.abs(dayMetres(rows) - tripMetres(events)) / dayMetres(rows)).toBeLessThan(0.01);
      expect(sum(rows, (r) => r.trips)).toBeGreaterThan(3);
      expect(sum(rows, (r) => r.fuelUsedPercent ?? 0)).toBeGreaterThan(0);
    }
  });
});

describe("driving by local hour (docs/decisions/0097)", () => {
  const tz = "America/Chicago";
  // 2026-01-15, winter: 07:30 local is 13:30 UTC.
  const at = (hhmm: string) => Date.parse(`2026-01-15T${hhmm}:00Z`);
  const parkedUntil = (from: number, to: number) =>
    steady(from, to, 0, 10_000, false).map((f) => ({ ...f, longitude: -87.6 + 26_820 / 83_000 }));

  it("a drive from 07:30 to 08:30 gives 30 minutes to each local hour, each handed on once the hour is over", () => {
    const drive = steady(at("13:30"), at("14:30"), 30);
    const { rows, hours } = rollupFixes(null, [...drive, ...parkedUntil(at("14:30") + 10_000, at("15:05"))], tz);
    expect(hours.map((h) => [h.day, h.hour])).toEqual([
      ["2026-01-15", 7],
      ["2026-01-15", 8],
    ]);
    expect(hours[0]!.drivingSeconds).toBeCloseTo(1800, 6);
    // and the 10 s to standing still, driving by the rollup's rule (the speeds at both ends)
    expect(hours[1]!.drivingSeconds).toBeCloseTo(1810, 6);
    // One measurement cut two ways: the hours add up to the day.
    expect(sum(hours, (h) => h.drivingSeconds)).toBeCloseTo(rows[0]!.drivingSeconds, 6);
    expect(sum(hours, (h) => h.drivingMetres)).toBeCloseTo(rows[0]!.movingMetres, 6);
    expect(hours[0]!.drivingMetres / hours[0]!.drivingSeconds).toBeCloseTo(mphToMetresPerSecond(30), 1);
  });

  it("keeps an hour until a fix falls past it, and hands each hour on once however the fixes are batched", () => {
    const fixes = [...steady(at("13:30"), at("14:30"), 30), ...parkedUntil(at("14:30") + 10_000, at("15:05"))];
    const before9 = fixes.filter((f) => f.time < at("15:00"));
    expect(rollupFixes(null, before9, tz).hours.map((h) => h.hour)).toEqual([7]);
    let state = null;
    const handed = [];
    for (let i = 0; i < fixes.length; i += 7) {
      const step = rollupFixes(state, fixes.slice(i, i + 7), tz);
      state = step.state;
      handed.push(...step.hours);
    }
    expect(handed).toEqual(rollupFixes(null, fixes, tz).hours);
  });

  it("the fall-back night's 01:00 that comes twice is one hour of the day, handed on once", () => {
    // 2026-11-01 in Chicago: 01:00 CDT is 06:00 UTC, 01:00 CST 07:00 UTC, 02:00 CST 08:00 UTC.
    const drive = steady(Date.parse("2026-11-01T06:00:00Z"), Date.parse("2026-11-01T08:00:00Z"), 30);
    const parked = steady(Date.parse("2026-11-01T08:00:10Z"), Date.parse("2026-11-01T08:10:00Z"), 0, 10_000, false);
    const { hours } = rollupFixes(null, [...drive, ...parked], tz);
    expect(hours.map((h) => [h.day, h.hour])).toEqual([["2026-11-01", 1]]);
    expect(hours[0]!.drivingSeconds).toBeCloseTo(7200, 6);
  });
});
