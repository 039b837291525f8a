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

const V4 = /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/;

/** A string of bits as base64url characters, the last one padded with zero bits. */
function bitsToBase64url(bits: string): string {
  let out = "";
  for (let i = 0; i < bits.length; i += 6) out += B64URL[parseInt(bits.slice(i, i + 6).padEnd(6, "0"), 2)];
  return out;
}

const hexBits = (hex: string) => [...hex].map((h) => parseInt(h, 16).toString(2).padStart(4, "0")).join("");
const bitsHex = (bits: string) => (bits.match(/.{4}/g) ?? []).map((b) => parseInt(b, 2).toString(16)).join("");

/**
 * A lower-case UUID as base64url characters, or undefined for any other id (the caller then sends
 * it as it is, under another field name, so the two never mix). A version-4 UUID (what
 * crypto.randomUUID makes) has 6 fixed bits (its version and variant), so its 122 others fit in
 * 21 characters (docs/decisions/0061); any other UUID's 16 bytes take 22 (36 → 22).
 */
export function compactUuid(id: string): string | undefined {
  if (!UUID.test(id)) return undefined;
  const hex = id.replace(/-/g, "");
  if (V4.test(hex))
    return bitsToBase64url(hexBits(hex.slice(0, 12) + hex.slice(13, 16)) + hexBits(hex.slice(16)).slice(2));
  return legacyCompactUuid(hex);
}

function legacyCompactUuid(hex: string): string {
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

/** A version-4 UUID from its 21 characters: the version digit and variant bits put back. */
function expandUuidV4(compact: string): string {
  const bits = [...compact].map((c) => B64URL.indexOf(c).toString(2).padStart(6, "0")).join("");
  const hex = `${bitsHex(bits.slice(0, 48))}4${bitsHex(bits.slice(48, 60))}${bitsHex(`10${bits.slice(60, 122)}`)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The UUID that compactUuid made `compact` from. */
export function expandUuid(compact: string): string {
  if (compact.length === 21) return expandUuidV4(compact);
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

/**
 * An id as it travels in a synced key or reference: a UUID as 21 or 22 base64url characters, any other id
 * as itself after a "~" (docs/decisions/0034), so the two never mix.
 */
export const packId = (id: string) => compactUuid(id) ?? `~${id}`;
export const unpackId = (packed: string) => (packed.startsWith("~") ? packed.slice(1) : expandUuid(packed));
