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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * A lower-case UUID's 16 bytes as 22 base64url characters (36 → 22), or undefined for any other
 * id (the caller then sends it as it is, under another field name, so the two never mix).
 */
export function compactUuid(id: string): string | undefined {
  if (!UUID.test(id)) return undefined;
  const hex = id.replace(/-/g, "");
  let out = "";
  // 32 hex digits = 128 bits: 21 groups of 6 bits and 2 bits left over.
  let bits = 0;
  let acc = 0;
  for (const h of hex) {
    acc = (acc << 4) | parseInt(h, 16);
    bits += 4;
    while (bits >= 6) {
      bits -= 6;
      out += B64URL[(acc >> bits) & 63];
    }
    acc &= (1 << bits) - 1;
  }
  return out + B64URL[(acc << (6 - bits)) & 63];
}

/** The UUID that compactUuid made `compact` from. */
export function expandUuid(compact: string): string {
  let hex = "";
  let bits = 0;
  let acc = 0;
  for (const c of compact) {
    acc = (acc << 6) | B64URL.indexOf(c);
    bits += 6;
    while (bits >= 4 && hex.length < 32) {
      bits -= 4;
      hex += ((acc >> bits) & 15).toString(16);
    }
    acc &= (1 << bits) - 1;
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
