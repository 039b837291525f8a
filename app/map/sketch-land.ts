// Generated at build time by scripts/offline-geography.mjs (the Vite plugin in vite.config.ts)
// and emitted as a fingerprinted asset: the JavaScript only carries its URL.
import landPath from "../../.cache/sketch-land.json?url";

/** The sketch's land: rings of [lng, lat, lng, lat, …] at 0.1°, Natural Earth's 1:110m. */
export type SketchLand = readonly (readonly number[])[];

let land: Promise<SketchLand | null> | null = null;

/**
 * The coarse land under the sketch's vehicles (docs/decisions/0068), asked for once the sketch
 * first draws, so its 19 KB never delay the vehicles; null when it cannot be had (drawn without).
 */
export function loadSketchLand(): Promise<SketchLand | null> {
  land ??= fetch(landPath)
    .then((response) => (response.ok ? (response.json() as Promise<SketchLand>) : null))
    .catch(() => null);
  return land;
}

/**
 * Beyond this zoom (a region across the screen) the 11 km outline would put vehicles near a coast
 * in the sea: the sketch keeps its plain background there.
 */
export const SKETCH_LAND_MAX_ZOOM = 7;
