import { describe, expect, it } from "vitest";
import { distanceMetres } from "../../shared/units/geo";
import { endOfDay, startOfDay } from "../../shared/units/time-zone";
import {
  learnedHourShape,
  measuredTravel,
  speedAtHour,
  streetTravel,
  typicalSpeed,
  type HourShape,
} from "../routing/street-travel";
import { estimateArrivals } from "./eta";
import { NO_PROGRESS, type PlannedJob } from "./planned-job";
import { advanceJobs, initialJobsState } from "./progress";

// Chicago's Loop, and two stops about 2 km and 4 km north.
const here = { latitude: 41.8781, longitude: -87.6298 };
const first = { id: "a", latitude: 41.8961, longitude: -87.6298, windowStart: null, durationMinutes: 5 };
const second = { id: "b", latitude: 41.9141, longitude: -87.6298, windowStart: null, durationMinutes: 5 };
const HOUR = 3_600_000;
/** 2026-10-20 00:00 UTC: the hours of these tests are UTC hours (hourAt below). */
const MIDNIGHT = Date.parse("2026-10-20T00:00:00Z");
const hourAt = (time: number) => ((time - MIDNIGHT) / HOUR) % 24;

describe("the vehicle's own travel (measuredTravel)", () => {
  it("takes longer for a leg departing in the evening rush than for the same leg now", () => {
    const travel = measuredTravel(10, 1.3, 11);
    const now = travel(here, first, 11);
    const rush = travel(here, first, 17);
    expect(rush.meters).toBe(now.meters);
    // The speed measured at 11:00 (shape 1.0) drives at 17:00 as the shape says (0.75) against 11:00.
    expect(rush.seconds).toBeCloseTo(now.seconds / 0.75, 6);
    expect(travel(here, first, 2).seconds).toBeLessThan(now.seconds);
  });

  it("drives a leg departing this hour at the measured speed, whatever the hour's shape", () => {
    const leg = measuredTravel(12, 1.4, 17.5)(here, first, 17.9);
    const straight = distanceMetres(here, first);
    expect(leg).toEqual({ meters: straight * 1.4, seconds: (straight * 1.4) / 12 });
  });

  it("gives the planner's leg when the vehicle drives at the speed the planner expects for this hour", () => {
    const recorded = { meters: 36_000, drivingSeconds: 3_600 };
    const planner = streetTravel(recorded, 1.25);
    for (const now of [3, 8, 11, 17]) {
      const vehicle = measuredTravel(speedAtHour(typicalSpeed(recorded), now), 1.25, now);
      for (let departure = 0; departure < 24; departure++) {
        const a = planner(here, second, departure);
        const b = vehicle(here, second, departure);
        expect(b.meters).toBe(a.meters);
        expect(b.seconds).toBeCloseTo(a.seconds, 6);
      }
    }
  });
});

describe("estimateArrivals on the travel interface", () => {
  const now = MIDNIGHT + 11 * HOUR;

  it("gives the ETAs of the straight line × road ratio at the recent speed within the hour", () => {
    const etas = estimateArrivals({
      now,
      position: here,
      travel: measuredTravel(9, 1.3, hourAt(now)),
      hourAt,
      at: null,
      ahead: [first, second],
    });
    // ADR 0055's formula, as the ETA computed it before it went through TravelTime.
    const toFirst = Math.round(now + ((distanceMetres(here, first) * 1.3) / 9) * 1000);
    const toSecond = Math.round(toFirst + 5 * 60_000 + ((distanceMetres(first, second) * 1.3) / 9) * 1000);
    expect(etas).toEqual(
      new Map([
        ["a", toFirst],
        ["b", toSecond],
      ]),
    );
  });

  it("times a leg by the hour it departs: after a stop that waits for the evening rush, the next leg is slower", () => {
    const at = (windowStart: number | null) =>
      estimateArrivals({
        now,
        position: here,
        travel: measuredTravel(9, 1.3, hourAt(now)),
        hourAt,
        at: null,
        ahead: [{ ...first, windowStart }, second],
      });
    const leg = (etas: Map<string, number>, leftFirst: number) => etas.get("b")! - leftFirst;
    const midday = at(null);
    const rush = at(MIDNIGHT + 17 * HOUR); // opens at 17:00; left at 17:05
    const leftMidday = midday.get("a")! + 5 * 60_000;
    expect(leg(rush, MIDNIGHT + 17 * HOUR + 5 * 60_000)).toBeCloseTo(leg(midday, leftMidday) / 0.75, -1);
  });
});

describe("the ETA in the workspace's zone", () => {
  const job = (id: string, latitude: number, windowStart: number | null, sequence: number): PlannedJob => ({
    ...NO_PROGRESS,
    id,
    number: sequence,
    title: id,
    area: null,
    sequence,
    latitude,
    longitude: here.longitude,
    radiusMeters: 100,
    durationMinutes: 5,
    windowStart,
    windowEnd: null,
  });
  const DAY = "2026-10-20";
  const ZONE = "America/Chicago";
  // 11:00 in Chicago (UTC-5 in October); the first stop opens at 17:00 there (22:00 UTC).
  const fix = { time: Date.parse("2026-10-20T16:00:00Z"), ...here, speed: 9, accuracy: 5 };
  const OPENS = Date.parse("2026-10-20T22:00:00Z");
  const secondLeg = (plan: PlannedJob[], state = initialJobsState(DAY), hourShape?: HourShape) => {
    const step = advanceJobs(state, fix, DAY, plan, { timeZone: ZONE, ...(hourShape && { hourShape }) });
    const eta = (id: string) => step.changed.find((row) => row.id === id)!.eta!;
    const left = Math.max(eta("a"), plan[0]!.windowStart ?? 0) + 5 * 60_000;
    return eta("b") - left;
  };

  it("reads the hour on the workspace's clock: leaving at 17:05 in Chicago meets the rush", () => {
    const midday = secondLeg([job("a", first.latitude, null, 1), job("b", second.latitude, null, 2)]);
    const rush = secondLeg([job("a", first.latitude, OPENS, 1), job("b", second.latitude, null, 2)]);
    expect(rush).toBeCloseTo(midday / 0.75, -1);
  });

  it("follows the workspace's learned shape of a day: a fleet whose evenings drive as fast as noon meets no rush at 17:05", () => {
    // 28 days of this fleet: 10 m/s at every hour 6-19 but 7-9 (5 m/s), as workspace_hour_driving holds them.
    const hours = Array.from({ length: 14 }, (_, i) => {
      const hour = 6 + i;
      const speed = hour === 7 || hour === 8 ? 5 : 10;
      return { hour, meters: speed * 36_000, drivingSeconds: 36_000 };
    });
    const learned = learnedHourShape(hours);
    const plan = [job("a", first.latitude, OPENS, 1), job("b", second.latitude, null, 2)];
    const midday = secondLeg(
      [job("a", first.latitude, null, 1), job("b", second.latitude, null, 2)],
      undefined,
      learned,
    );
    expect(secondLeg(plan, undefined, learned)).toBeCloseTo(midday, -1);
    // The default shape's rush, for a workspace that has not driven enough to say.
    expect(secondLeg(plan, undefined, learnedHourShape([]))).toBeCloseTo(midday / 0.75, -1);
  });

  it("works the zone's hours out of the day's bounds as it would from the zone itself", () => {
    const plan = [job("a", first.latitude, OPENS, 1), job("b", second.latitude, null, 2)];
    const bounded = {
      ...initialJobsState(DAY),
      dayBounds: [startOfDay(DAY, ZONE), endOfDay(DAY, ZONE)] as [number, number],
    };
    expect(secondLeg(plan, bounded)).toBe(secondLeg(plan));
  });
});
