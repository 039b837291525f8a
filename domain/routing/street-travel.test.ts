import { describe, expect, it } from "vitest";
import { distanceMetres } from "../../shared/units/geo";
import { DEFAULT_ROAD_RATIO } from "../jobs/travel";
import {
  DEFAULT_HOUR_SHAPE,
  learnedHourShape,
  measuredTravel,
  MIN_LEARNED_HOUR_SECONDS,
  speedAtHour,
  streetTravel,
  typicalSpeed,
  type RecordedDriving,
  type RecordedHour,
} from "./street-travel";

const here = { latitude: 41.88, longitude: -87.63 };
const north = { latitude: 41.97, longitude: -87.63 };
const HOUR = 3_600;

/** A fleet's 28 days by hour: `hours` of driving in each hour 6-19 at `speed` m/s, `slow` m/s in `slowHours`. */
function fleetDays(speed: number, slow: number, slowHours: readonly number[], hours = 10): RecordedHour[] {
  const rows: RecordedHour[] = [];
  for (let hour = 6; hour < 20; hour++) {
    const v = slowHours.includes(hour) ? slow : speed;
    rows.push({ hour, meters: v * hours * HOUR, drivingSeconds: hours * HOUR });
  }
  return rows;
}

const recordedOf = (hours: RecordedHour[]): RecordedDriving => ({
  meters: hours.reduce((s, h) => s + h.meters, 0),
  drivingSeconds: hours.reduce((s, h) => s + h.drivingSeconds, 0),
  hours,
});

describe("street travel on the fleet's own hours (docs/decisions/0097)", () => {
  it("a fleet that drives slowly from 7 to 9 gets slower morning legs than its day, where the default shape has another rush", () => {
    const hours = fleetDays(10, 5, [7, 8]);
    const travel = streetTravel(recordedOf(hours));
    const morning = travel(here, north, 7.5).seconds;
    const noon = travel(here, north, 12).seconds;
    // 5 m/s against 10: twice the time of noon's leg, not the default shape's 1 / 0.75.
    expect(morning / noon).toBeCloseTo(2, 6);
    // The evening drives as fast as noon in this fleet: the default's 16:00-18:00 rush is not laid over it.
    expect(travel(here, north, 17).seconds).toBeCloseTo(noon, 6);
    // And the leg's length is still the straight line × the road ratio.
    expect(travel(here, north, 7.5).meters).toBeCloseTo(distanceMetres(here, north) * DEFAULT_ROAD_RATIO, 6);
  });

  it("keeps the default shape for an hour with too little driving, and for a new workspace", () => {
    const hours = fleetDays(10, 5, [7, 8]);
    // 7:00 drove only 20 minutes over the learned days: not enough to say.
    hours[1] = { hour: 7, meters: 5 * 1200, drivingSeconds: 1200 };
    expect(1200).toBeLessThan(MIN_LEARNED_HOUR_SECONDS);
    const shape = learnedHourShape(hours);
    expect(shape[7]).toBe(DEFAULT_HOUR_SHAPE[7]);
    expect(shape[8]).toBeLessThan(0.6);
    // Night hours nobody drove: the default.
    expect(shape[2]).toBe(DEFAULT_HOUR_SHAPE[2]);
    expect(learnedHourShape([])).toEqual(DEFAULT_HOUR_SHAPE);
    expect(learnedHourShape(undefined)).toEqual(DEFAULT_HOUR_SHAPE);
    // A new workspace plans on the default speed and shape, as before.
    const fresh = streetTravel(null);
    expect(fresh(here, north, 8).seconds / fresh(here, north, 11).seconds).toBeCloseTo(1 / 0.75, 6);
  });

  it("learns nothing from under an hour of driving in all, and keeps a wild hour within bounds", () => {
    expect(learnedHourShape([{ hour: 8, meters: 50 * 1800, drivingSeconds: 1800 }])).toEqual(DEFAULT_HOUR_SHAPE);
    const wild = learnedHourShape([
      { hour: 8, meters: 0.01 * 1800, drivingSeconds: 1800 },
      { hour: 12, meters: 10 * 36_000, drivingSeconds: 36_000 },
    ]);
    expect(wild[8]).toBe(0.4);
  });

  it("gives the live ETA the same learned shape: the vehicle at the planner's speed for this hour drives the planner's legs", () => {
    const hours = fleetDays(11, 4, [7, 8, 16, 17]);
    const recorded = recordedOf(hours);
    const shape = learnedHourShape(hours);
    const planner = streetTravel(recorded, 1.25);
    for (const now of [8, 11, 17]) {
      const vehicle = measuredTravel(speedAtHour(typicalSpeed(recorded), now, shape), 1.25, now, shape);
      for (let departure = 0; departure < 24; departure++)
        expect(vehicle(here, north, departure).seconds).toBeCloseTo(planner(here, north, departure).seconds, 6);
    }
  });
});
