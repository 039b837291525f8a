/**
 * Helpers for the compact form in which synced values travel and are stored (docs/decisions/0013):
 * absent instead of null, floats rounded to what a screen can show. Each entity's own file
 * (vehicle.ts, telemetry.ts, vehicle-event.ts) defines its wire type and its encode/decode.
 */

/** Rounds to `decimals` places; -0 becomes 0 so it serialises as "0". */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f + 0;
}

/** Copies `value` under `key` unless it is null or undefined (JSON would write out a null). */
export function setIfPresent<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | null | undefined) {
  if (value !== null && value !== undefined) target[key] = value;
}

/** `value` rounded, or undefined for null (so setIfPresent leaves it out). */
export const roundOrNone = (value: number | null | undefined, decimals: number) =>
  value === null || value === undefined ? undefined : round(value, decimals);

/** Coordinates to 6 decimals: about 11 cm, finer than any tracker's fix. */
export const COORDINATE_DECIMALS = 6;
