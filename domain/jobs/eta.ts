import { distanceMetres, type LatLon } from "../../shared/units/geo";
import type { TravelTime } from "../routing/street-travel";
import type { PlannedJob } from "./planned-job";

/**
 * When a vehicle reaches each stop it has not reached yet (docs/decisions/0055): along its
 * remaining stops in order, from where it is, each leg timed by `travel` at the hour it departs
 * (the planner's travel interface, domain/routing/street-travel.ts: for a vehicle, its road ratio and
 * recent speed, measuredTravel, ADR 0091); at each stop on the way it waits for the window to open
 * and stays the job's expected duration. A stop it is at now holds it for what is left of its duration.
 * Close to the next stop and closing on it steadily (`closing`), that leg blends in what the
 * vehicle is doing: the straight distance at the speed it closes it (docs/decisions/0083).
 */
export interface EtaInput {
  now: number;
  position: LatLon;
  /** A leg's time from where, to where, at the local hour it departs. */
  travel: TravelTime;
  /** The local hour (0-24, fractions allowed) of a time (ms). */
  hourAt: (time: number) => number;
  /** The stop the vehicle is at now (arrived, not left), if any. */
  at: Pick<PlannedJob, "arrivedAt" | "durationMinutes"> | null;
  /** The stops not reached yet, in order. */
  ahead: readonly Pick<PlannedJob, "id" | "latitude" | "longitude" | "windowStart" | "durationMinutes">[];
  /** m/s: how fast the straight distance to the first stop ahead has been shrinking, when steadily (closingSpeed). */
  closing?: number | null;
}

/** Up to this many seconds out at the observed closing speed, the observation alone is the first leg's time. */
export const CLOSE_FULL_S = 120;
/** From this many seconds out, the typical-speed model alone; blended linearly in between. */
export const CLOSE_NONE_S = 360;

export function estimateArrivals(input: EtaInput): Map<string, number> {
  const { now, position, travel, hourAt, at, ahead, closing } = input;
  const etas = new Map<string, number>();
  let clock = at ? Math.max(now, (at.arrivedAt ?? now) + at.durationMinutes * 60_000) : now;
  let from = position;
  for (const [i, stop] of ahead.entries()) {
    const modelled = travel(from, stop, hourAt(clock)).seconds;
    const seconds = i === 0 && !at && closing ? blendClose(modelled, distanceMetres(from, stop) / closing) : modelled;
    const eta = Math.round(clock + seconds * 1000);
    etas.set(stop.id, eta);
    // It cannot start before the window opens, then it stays the job's duration.
    clock = Math.max(eta, stop.windowStart ?? eta) + stop.durationMinutes * 60_000;
    from = stop;
  }
  return etas;
}

/**
 * The first leg's seconds: the model's, and the observed (straight distance over closing speed)
 * weighted by how close that says the stop is. A vehicle driving straight at its stop covers the
 * straight line at its own speed, where the model assumes a city's roads and pace (issue 53: 177 s
 * given for 73 s at 15 m/s from 1,100 m).
 */
export function blendClose(modelled: number, observed: number): number {
  const weight = Math.min(1, Math.max(0, (CLOSE_NONE_S - observed) / (CLOSE_NONE_S - CLOSE_FULL_S)));
  return weight * observed + (1 - weight) * modelled;
}

/** Samples of closing on a stop: at least this long a span, and this many. */
const CLOSING_SPAN_MS = 25_000;
const CLOSING_SAMPLES = 3;
/** Kept this long. */
export const CLOSING_WINDOW_MS = 45_000;
/** Every step closes at least this fast (m/s): a vehicle stopped at a light is not closing steadily. */
const MIN_CLOSING_MPS = 3;
/** The slowest step at least this share of the fastest: steady. */
const STEADY_RATIO = 0.6;
/** Closing at least this share of the vehicle's speed: heading at the stop, not past it. */
const HEADING_RATIO = 0.75;

/**
 * How fast the straight distance to a stop has been shrinking (m/s) over `samples` ([time,
 * metres], oldest first), when it has steadily and about as fast as the vehicle moves (`speed`,
 * m/s): else null, and the model alone holds.
 */
export function closingSpeed(samples: readonly [number, number][], speed: number): number | null {
  if (samples.length < CLOSING_SAMPLES) return null;
  const [t0, m0] = samples[0]!;
  const [tn, mn] = samples[samples.length - 1]!;
  if (tn - t0 < CLOSING_SPAN_MS) return null;
  let slowest = Infinity;
  let fastest = 0;
  for (let i = 1; i < samples.length; i++) {
    const [ta, ma] = samples[i - 1]!;
    const [tb, mb] = samples[i]!;
    const step = ((ma - mb) / (tb - ta)) * 1000;
    slowest = Math.min(slowest, step);
    fastest = Math.max(fastest, step);
  }
  const closing = ((m0 - mn) / (tn - t0)) * 1000;
  if (slowest < MIN_CLOSING_MPS || slowest < STEADY_RATIO * fastest) return null;
  return closing >= HEADING_RATIO * speed ? closing : null;
}

/** Late: expected (or arrived) after the window closes. */
export const isLate = (expectedAt: number | null, windowEnd: number | null) =>
  expectedAt !== null && windowEnd !== null && expectedAt > windowEnd;
