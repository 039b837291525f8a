/** Pure maths of the trip replay (app/map/trip-replay.tsx), unit-tested. */
import type { TrackPoint } from "../../shared/fleet/downsample";

/** A point of a trip's path: the server's downsampled track point (shared/fleet/downsample.ts). */
export type TimedPoint = TrackPoint;

/** Playback speeds offered (×1 is real time), as Traccar's and Samsara's replays offer a few. */
export const REPLAY_SPEEDS = [1, 10, 60] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/**
 * Where the vehicle was at time `t` of a recorded path (oldest first): between two recorded
 * points, on the straight line between them in proportion to the time elapsed, with the speed
 * likewise between theirs; before the first or after the last, at that point. Binary search: a
 * frame costs log(n) whatever the trip's length.
 */
export function positionAt(points: readonly TimedPoint[], t: number): TimedPoint | null {
  if (!points.length) return null;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (t <= first.t) return { ...first, t };
  if (t >= last.t) return { ...last, t };
  let lo = 0;
  let hi = points.length - 1;
  // Invariant: points[lo].t <= t < points[hi].t
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = points[lo]!;
  const b = points[hi]!;
  const f = (t - a.t) / (b.t - a.t);
  const speed = a.speed === null || b.speed === null ? (a.speed ?? b.speed) : a.speed + (b.speed - a.speed) * f;
  return {
    t,
    lat: a.lat + (b.lat - a.lat) * f,
    lng: a.lng + (b.lng - a.lng) * f,
    speed,
  };
}

/** The replay clock after `elapsedMs` of wall time at `speed`, clamped to the trip's end. */
export function advance(cursor: number, elapsedMs: number, speed: ReplaySpeed, end: number): number {
  return Math.min(end, cursor + elapsedMs * speed);
}

/** Midnight of `now`'s local day: the route shows the vehicle's path since then. */
export function startOfDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}
