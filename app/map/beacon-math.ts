/**
 * The beacons' maths, pure so it is unit-tested and shared by the GPU and the CPU: the vertex
 * shader (beacon-shaders.ts) draws the glide with easing.ts's curve, and clicks and hover use the
 * same functions to find where a beacon is drawn at a given moment. Positions are Web Mercator in
 * [0, 1] (x east, y south), the unit mapbox-gl's custom layer matrix takes.
 */
import { ease } from "./easing";
import { GLIDE_MS } from "./geometry";

export function mercatorX(lng: number): number {
  return (180 + lng) / 360;
}

export function mercatorY(lat: number): number {
  const clamped = Math.max(-85.051129, Math.min(85.051129, lat));
  return (180 - (180 / Math.PI) * Math.log(Math.tan(Math.PI / 4 + (clamped * Math.PI) / 360))) / 360;
}

export function lngOf(x: number): number {
  return x * 360 - 180;
}

export function latOf(y: number): number {
  return (360 / Math.PI) * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180)) - 90;
}

/** Where a beacon gliding from (fx, fy) to (tx, ty) since `startedAt` is at `now` (ms). */
export function glideAt(
  fx: number,
  fy: number,
  tx: number,
  ty: number,
  startedAt: number,
  now: number,
  total = GLIDE_MS,
): [number, number] {
  const e = ease((now - startedAt) / total);
  return [fx + (tx - fx) * e, fy + (ty - fy) * e];
}

/** Beacon diameter in CSS pixels for a number of vehicles in a cluster (1: a plain beacon). */
export function clusterDiameter(beaconDiameter: number, count: number): number {
  return count <= 1 ? beaconDiameter : beaconDiameter + 6 * Math.log10(count);
}

/** Map side in CSS pixels at a zoom (mapbox-gl's 512 px tiles). */
export function worldSize(zoom: number): number {
  return 512 * 2 ** zoom;
}

/**
 * float32 keeps 24 bits: a coordinate stored relative to an origin loses about |p − origin| × 6e-8
 * of the world, so positions are uploaded relative to an origin near the camera. The origin must
 * move (and every slot be rewritten) once the camera is so far from it that this error, in
 * pixels at the current zoom, would exceed a quarter of a pixel.
 */
export function originTooFar(
  origin: readonly [number, number],
  center: readonly [number, number],
  zoom: number,
): boolean {
  const distance = Math.max(Math.abs(origin[0] - center[0]), Math.abs(origin[1] - center[1]));
  return distance * worldSize(zoom) * 6e-8 > 0.25;
}

export interface Cluster {
  x: number;
  y: number;
  count: number;
}

/**
 * Aggregation at low zoom: beacons fall into square cells of `cellPx` pixels at `zoom` (whole
 * zoom levels, so clusters do not churn while a zoom animation runs); a cell holding at least
 * `minCount` of them becomes one cluster at their mean position, and its members are marked in
 * `hidden`. `skip(i)` keeps a beacon out of any cluster (the selected vehicle, always shown).
 * Linear in the number of beacons.
 */
export function clusterBeacons(
  count: number,
  xOf: (i: number) => number,
  yOf: (i: number) => number,
  zoom: number,
  cellPx: number,
  minCount: number,
  skip: (i: number) => boolean = () => false,
): { clusters: Cluster[]; hidden: Uint8Array } {
  const hidden = new Uint8Array(count);
  const cell = cellPx / worldSize(Math.floor(zoom));
  // Two passes over flat arrays: count per cell, then sum the crowded cells (no per-cell lists).
  const keys = new Float64Array(count);
  const counts = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    if (skip(i)) {
      keys[i] = NaN;
      continue;
    }
    const key = Math.floor(xOf(i) / cell) * 4_194_304 + Math.floor(yOf(i) / cell);
    keys[i] = key;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const byCell = new Map<number, Cluster>();
  for (let i = 0; i < count; i++) {
    const key = keys[i]!;
    const n = counts.get(key);
    if (n === undefined || n < minCount) continue;
    hidden[i] = 1;
    let c = byCell.get(key);
    if (!c) byCell.set(key, (c = { x: 0, y: 0, count: n }));
    c.x += xOf(i) / n;
    c.y += yOf(i) / n;
  }
  const clusters = [...byCell.values()];
  return { clusters, hidden };
}

/**
 * The candidate nearest to a pointer among those whose disc contains it: `distance(i)` gives the
 * pointer's distance in pixels to candidate i's centre (NaN when not a candidate), `radius(i)`
 * its drawn radius. Later candidates are drawn above earlier ones, so on a tie the later wins.
 */
export function pickNearest(count: number, distance: (i: number) => number, radius: (i: number) => number): number {
  let best = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < count; i++) {
    const d = distance(i);
    if (!(d <= radius(i))) continue;
    if (d <= bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}
