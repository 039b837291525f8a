import { distanceMetres, type LatLon } from "../../shared/units/geo";
import { DEFAULT_ROAD_RATIO, DEFAULT_SPEED_MPS } from "../jobs/travel";

/**
 * Travel on real streets without a routing server (issue 54, docs/decisions/0076): the straight
 * line × the road ratio for the distance, over a speed that depends on the local hour of departure.
 * One function (from, to, departure) is the whole interface, so a routing service can replace it.
 */
export interface Leg {
  meters: number;
  seconds: number;
}

/** Where, and the local hour of a departure (0-23, fractions allowed), to a leg. */
export type TravelTime = (from: LatLon, to: LatLon, departureHour: number) => Leg;

/**
 * How much slower or faster than the day's typical speed each local hour drives: the morning and
 * evening rush slower, the night faster. A shape, not a measurement: the rollups hold a vehicle's
 * day, not its hours, so what the fleet teaches is the level, and this shape is laid over it.
 */
const HOUR_FACTOR: readonly number[] = [
  1.25, 1.25, 1.25, 1.25, 1.25, 1.15, 1.0, 0.75, 0.75, 0.9, 1.0, 1.0, 0.95, 1.0, 1.0, 0.95, 0.8, 0.75, 0.8, 1.0, 1.1,
  1.15, 1.2, 1.25,
];

/** The recorded driving a learned speed needs before it replaces the default (one hour). */
export const MIN_LEARNED_DRIVING_SECONDS = 3600;
/** A learned speed is kept within walking pace and motorway cruising. */
const MIN_SPEED_MPS = 2;
const MAX_SPEED_MPS = 30;

/** The fleet's recorded driving (sums of its day rollups): road metres over driving seconds. */
export interface RecordedDriving {
  meters: number;
  drivingSeconds: number;
}

/**
 * The fleet's typical road speed: learned from its recorded days when they hold an hour of
 * driving, else the city default of domain/jobs/travel.ts.
 */
export function typicalSpeed(recorded: RecordedDriving | null): number {
  if (!recorded || recorded.drivingSeconds < MIN_LEARNED_DRIVING_SECONDS) return DEFAULT_SPEED_MPS;
  return Math.min(MAX_SPEED_MPS, Math.max(MIN_SPEED_MPS, recorded.meters / recorded.drivingSeconds));
}

/** The hour shape at a local hour (0-23, fractions allowed). */
const hourFactor = (hour: number) => HOUR_FACTOR[((Math.floor(hour) % 24) + 24) % 24]!;

/** The speed (m/s) at a local hour of the day, around a typical speed. */
export function speedAtHour(typical: number, hour: number): number {
  return typical * hourFactor(hour);
}

/** Every travel function here: the straight line × a road ratio, over the speed at the hour of departure. */
function roadTravel(roadRatio: number, speedAt: (hour: number) => number): TravelTime {
  return (from, to, departureHour) => {
    const meters = distanceMetres(from, to) * roadRatio;
    return { meters, seconds: meters / speedAt(departureHour) };
  };
}

/** The street travel function for a fleet: its typical speed, shaped by the hour; the road ratio of ADR 0055. */
export function streetTravel(recorded: RecordedDriving | null, roadRatio = DEFAULT_ROAD_RATIO): TravelTime {
  const typical = typicalSpeed(recorded);
  return roadTravel(roadRatio, (hour) => speedAtHour(typical, hour));
}

/**
 * A vehicle's own travel, for its live ETA (docs/decisions/0055, 0091): the speed it has driven
 * lately (m/s) and its learned road ratio. That speed was measured in the hour of `nowHour`, so
 * it already holds that hour's traffic: a leg departing at another hour scales it by the ratio of
 * the two hours' shape, not by the shape itself (which would count this hour twice).
 */
export function measuredTravel(speed: number, roadRatio: number, nowHour: number): TravelTime {
  const now = hourFactor(nowHour);
  return roadTravel(roadRatio, (hour) => speed * (hourFactor(hour) / now));
}
