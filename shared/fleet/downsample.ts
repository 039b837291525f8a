/**
 * Downsampling a vehicle's path for the screen (docs/decisions/0014): Douglas-Peucker by rank, so
 * the answer has at most `max` points whatever the day held, and keeps the shape that is visible
 * at any zoom. Stops are kept: where a vehicle starts or stops moving is always a point, so a
 * replay that interpolates by time waits at each stop for as long as the vehicle did.
 */

export interface TrackPoint {
  /** ms since epoch */
  t: number;
  lat: number;
  lng: number;
  /** m/s, null when unknown */
  speed: number | null;
}

/** Below this a report counts as standing still (the same threshold as the Worker's trip detection). */
export const STATIONARY_BELOW_MS = 1;

const moving = (p: TrackPoint) => (p.speed ?? 0) >= STATIONARY_BELOW_MS;

/**
 * Indices that must survive any downsampling: the ends, and the last point before and the first
 * point after every change between moving and standing still.
 */
export function stopBoundaries(points: readonly TrackPoint[]): number[] {
  if (points.length === 0) return [];
  const keep = new Set<number>([0, points.length - 1]);
  for (let i = 1; i < points.length; i++) {
    if (moving(points[i]!) !== moving(points[i - 1]!)) {
      keep.add(i - 1);
      keep.add(i);
    }
  }
  return [...keep].sort((a, b) => a - b);
}

/**
 * Douglas-Peucker importance of each point: the tolerance below which it would be kept. Split
 * points never rank above the split that contains them, so keeping every point above a
 * threshold is exactly Douglas-Peucker at that tolerance. Iterative: a day is tens of thousands
 * of points, too deep for recursion in a Worker. `x`, `y` are the points in metres on a flat
 * projection (fine at the scale of one vehicle's day).
 */
function importance(x: Float64Array, y: Float64Array, from: number, to: number, rank: Float64Array) {
  const stack: number[] = [from, to, Infinity];
  while (stack.length) {
    const cap = stack.pop()!;
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const ax = x[a]!,
      ay = y[a]!;
    const dx = x[b]! - ax,
      dy = y[b]! - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1;
    let bestDistance = -1;
    for (let i = a + 1; i < b; i++) {
      const px = x[i]! - ax,
        py = y[i]! - ay;
      const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      const ex = px - u * dx,
        ey = py - u * dy;
      const d = ex * ex + ey * ey;
      if (d > bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    const r = Math.min(Math.sqrt(bestDistance), cap);
    rank[best] = r;
    stack.push(a, best, r, best, b, r);
  }
}

/** At most `max` (≥ 2) of `points`, oldest first: the stop boundaries, then the most important others. */
export function downsampleTrack<T extends TrackPoint>(points: readonly T[], max: number): T[] {
  if (points.length <= max) return [...points];
  let mandatory = stopBoundaries(points);
  if (mandatory.length > max) {
    // More stops than room (a day of stop-and-go at a coarse budget): evenly spaced ones, ends kept.
    const step = (mandatory.length - 1) / (max - 1);
    mandatory = Array.from({ length: max }, (_, i) => mandatory[Math.round(i * step)]!);
  }
  const R = 6_371_000;
  const k = Math.cos((points[0]!.lat * Math.PI) / 180);
  const x = Float64Array.from(points, (p) => (p.lng * Math.PI * R * k) / 180);
  const y = Float64Array.from(points, (p) => (p.lat * Math.PI * R) / 180);
  const rank = new Float64Array(points.length).fill(-1);
  // Each stretch between two kept points is simplified on its own, so stops are never cut across.
  for (let i = 1; i < mandatory.length; i++) importance(x, y, mandatory[i - 1]!, mandatory[i]!, rank);
  const kept = new Set(mandatory);
  const room = max - kept.size;
  const candidates = [];
  for (let i = 0; i < points.length; i++) if (!kept.has(i) && rank[i]! > 0) candidates.push(i);
  candidates.sort((a, b) => rank[b]! - rank[a]!);
  for (const i of candidates.slice(0, room)) kept.add(i);
  return [...kept].sort((a, b) => a - b).map((i) => points[i]!);
}
