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
 * The default shape of a day: how much slower or faster than the day's typical speed each local
 * hour drives, the morning and evening rush slower, the night faster. What a workspace gets for
 * the hours its own driving has not taught yet (learnedHourShape).
 */
export const DEFAULT_HOUR_SHAPE: HourShape = [
  1.25, 1.25, 1.25, 1.25, 1.25, 1.15, 1.0, 0.75, 0.75, 0.9, 1.0, 1.0, 0.95, 1.0, 1.0, 0.95, 0.8, 0.75, 0.8, 1.0, 1.1,
  1.15, 1.2, 1.25,
];

/** Each local hour's speed over the typical speed (24 factors, hour 0 first). */
export type HourShape = readonly number[];

/** The recorded driving a learned speed needs before it replaces the default (one hour). */
export const MIN_LEARNED_DRIVING_SECONDS = 3600;
/** A learned speed is kept within walking pace and motorway cruising. */
const MIN_SPEED_MPS = 2;
const MAX_SPEED_MPS = 30;

/** An hour's own driving the learned shape needs before it replaces the default (half an hour). */
export const MIN_LEARNED_HOUR_SECONDS = 1800;
/** A learned hour is kept within these factors of the typical speed (a few odd trips, not a shape). */
const MIN_HOUR_FACTOR = 0.4;
const MAX_HOUR_FACTOR = 2.5;

/** A local hour of the day's recorded driving, summed over the learned days (workspace_hour_driving). */
export interface RecordedHour {
  /** 0-23 */
  hour: number;
  meters: number;
  drivingSeconds: number;
}

/**
 * The fleet's recorded driving: road metres over driving seconds (sums of its day rollups), and
 * by local hour of the day when known (docs/decisions/0097).
 */
export interface RecordedDriving {
  meters: number;
  drivingSeconds: number;
  hours?: readonly RecordedHour[];
}

/**
 * The fleet's own shape of a day (docs/decisions/0097): each hour's speed over the speed of all
 * its hours together, for an hour with MIN_LEARNED_HOUR_SECONDS of driving; the default shape
 * for the others (a new workspace: all of them).
 */
export function learnedHourShape(hours: readonly RecordedHour[] | undefined): HourShape {
  if (!hours?.length) return DEFAULT_HOUR_SHAPE;
  const meters = hours.reduce((sum, h) => sum + h.meters, 0);
  const seconds = hours.reduce((sum, h) => sum + h.drivingSeconds, 0);
  if (seconds < MIN_LEARNED_DRIVING_SECONDS || meters <= 0) return DEFAULT_HOUR_SHAPE;
  const overall = meters / seconds;
  const shape = [...DEFAULT_HOUR_SHAPE];
  for (const h of hours) {
    if (h.drivingSeconds < MIN_LEARNED_HOUR_SECONDS || !(h.hour >= 0 && h.hour < 24)) continue;
    const factor = h.meters / h.drivingSeconds / overall;
    shape[Math.floor(h.hour)] = Math.min(MAX_HOUR_FACTOR, Math.max(MIN_HOUR_FACTOR, factor));
  }
  return shape;
}

/**
 * The fleet's typical road speed: learned from its recorded days when they hold an hour of
 * driving, else the city default of domain/jobs/travel.ts.
 */
export function typicalSpeed(recorded: RecordedDriving | null): number {
  if (!recorded || recorded.drivingSeconds < MIN_LEARNED_DRIVING_SECONDS) return DEFAULT_SPEED_MPS;
  return Math.min(MAX_SPEED_MPS, Math.max(MIN_SPEED_MPS, recorded.meters / recorded.drivingSeconds));
}

/** A shape's factor at a local hour (0-23, fractions allowed). */
const hourFactor = (shape: HourShape, hour: number) => shape[((Math.floor(hour) % 24) + 24) % 24]!;

/** The speed (m/s) at a local hour of the day, around a typical speed, by a shape of the day. */
export function speedAtHour(typical: number, hour: number, shape: HourShape = DEFAULT_HOUR_SHAPE): number {
  return typical * hourFactor(shape, hour);
}

/** Every travel function here: the straight line × a road ratio, over the speed at the hour of departure. */
function roadTravel(roadRatio: number, speedAt: (hour: number) => number): TravelTime {
  return (from, to, departureHour) => {
    const meters = distanceMetres(from, to) * roadRatio;
    return { meters, seconds: meters / speedAt(departureHour) };
  };
}

/**
 * The street travel function for a fleet: its typical speed, shaped by the hour as it drives
 * them (learnedHourShape); the road ratio of ADR 0055.
 */
export function streetTravel(recorded: RecordedDriving | null, roadRatio = DEFAULT_ROAD_RATIO): TravelTime {
  const typical = typicalSpeed(recorded);
  const shape = learnedHourShape(recorded?.hours);
  return roadTravel(roadRatio, (hour) => speedAtHour(typical, hour, shape));
}

/**
 * A vehicle's own travel, for its live ETA (docs/decisions/0055, 0091): the speed it has driven
 * lately (m/s) and its learned road ratio. That speed was measured in the hour of `nowHour`, so
 * it already holds that hour's traffic: a leg departing at another hour scales it by the ratio of
 * the two hours' shape, not by the shape itself (which would count this hour twice). The shape
 * is the workspace's learned one (learnedHourShape), as the planner's.
 */
export function measuredTravel(
  speed: number,
  roadRatio: number,
  nowHour: number,
  shape: HourShape = DEFAULT_HOUR_SHAPE,
): TravelTime {
  const now = hourFactor(shape, nowHour);
  return roadTravel(roadRatio, (hour) => speed * (hourFactor(shape, hour) / now));
}
