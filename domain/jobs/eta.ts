import { distanceMetres, type LatLon } from "../../shared/units/geo";
import type { PlannedJob } from "./plan";

/**
 * When a vehicle reaches each stop it has not reached yet (docs/decisions/0055): along its
 * remaining stops in order, from where it is, each leg the straight line times the vehicle's road
 * ratio, driven at its recent speed; at each stop on the way it waits for the window to open and
 * stays the job's expected duration. A stop it is at now holds it for what is left of its duration.
 */
export interface EtaInput {
  now: number;
  position: LatLon;
  /** m/s along the road */
  speed: number;
  roadRatio: number;
  /** The stop the vehicle is at now (arrived, not left), if any. */
  at: Pick<PlannedJob, "arrivedAt" | "durationMinutes"> | null;
  /** The stops not reached yet, in order. */
  ahead: readonly Pick<PlannedJob, "id" | "latitude" | "longitude" | "windowStart" | "durationMinutes">[];
}

export function estimateArrivals({ now, position, speed, roadRatio, at, ahead }: EtaInput): Map<string, number> {
  const etas = new Map<string, number>();
  let clock = at ? Math.max(now, (at.arrivedAt ?? now) + at.durationMinutes * 60_000) : now;
  let from = position;
  for (const stop of ahead) {
    const metres = distanceMetres(from, stop) * roadRatio;
    const eta = Math.round(clock + (metres / speed) * 1000);
    etas.set(stop.id, eta);
    // It cannot start before the window opens, then it stays the job's duration.
    clock = Math.max(eta, stop.windowStart ?? eta) + stop.durationMinutes * 60_000;
    from = stop;
  }
  return etas;
}

/** Late: expected (or arrived) after the window closes. */
export const isLate = (expectedAt: number | null, windowEnd: number | null) =>
  expectedAt !== null && windowEnd !== null && expectedAt > windowEnd;
