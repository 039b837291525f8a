import { knotsToMetresPerSecond } from "../../shared/units/units";
import { ByteReader, ByteWriter } from "./varint";

/**
 * One stored fix of a vehicle, as ingestion accepts it (the columns of D1's old `positions` table
 * minus the workspace and vehicle, which a blob holds once). Every number comes back exactly as it
 * went in (docs/decisions/0023-positions-storage.md).
 */
export interface StoredFix {
  beaconId: string;
  /** device time, ms since epoch */
  recordedAt: number;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  altitude: number | null;
  accuracy: number | null;
  battery: number | null;
  ignition: boolean | null;
  fuel: number | null;
  odometer: number | null;
  /** server time of the request that stored it, ms since epoch */
  receivedAt: number;
}

/**
 * The blob: a format byte, the fixes' count, their beacon ids, then one column per field. A column
 * is a scaled-integer series: each value v is stored as q = round(v * 10^k) with k chosen per blob
 * and column (the smallest total size), delta-encoded against the previous present value as a
 * zigzag varint; nulls are a presence bitmap; a value q / 10^k does not give back exactly (a
 * float that is not a short decimal, a knots conversion, 1e300) carries the difference of the two
 * IEEE-754 bit patterns as an exception, so decoding is exact. A column with one value throughout
 * is that value once. Speed may instead be stored as the knots OsmAnd sent (converted back on read
 * with the same function ingestion used), which a knots conversion needs to stay a short decimal.
 */
const FORMAT = 1;
/** Largest decimal scale tried per column (1e-9 degree is 0.1 mm). */
const MAX_SCALE = 9;
/** Scaled values beyond this are stored as exceptions from 0 (keeps every delta a safe integer). */
const MAX_SCALED = 2 ** 50;

type Column = (number | null)[];
const FLAG_NULLS = 1;
const FLAG_CONSTANT = 2;
const FLAG_ALL_NULL = 4;
/** The column holds knots: OsmAnd's speed, stored as the short decimal the tracker sent. */
const FLAG_KNOTS = 8;

/** How a column's stored integers map back to values: plain decimals, or decimal knots converted. */
interface Unit {
  flag: number;
  toStored: (v: number) => number;
  fromStored: (x: number) => number;
}
const PLAIN: Unit = { flag: 0, toStored: (v) => v, fromStored: (x) => x };
const KNOTS: Unit = {
  flag: FLAG_KNOTS,
  toStored: (v) => v / knotsToMetresPerSecond(1),
  fromStored: knotsToMetresPerSecond,
};

const NUMERIC_FIELDS = [
  "recordedAt",
  "receivedAt",
  "latitude",
  "longitude",
  "speed",
  "heading",
  "altitude",
  "accuracy",
  "battery",
  "fuel",
  "odometer",
] as const;

/** Sorted by device time (then beacon), exact duplicates of (beacon, time) dropped: the first one given wins. */
export function normalize(fixes: readonly StoredFix[]): StoredFix[] {
  const seen = new Set<string>();
  const unique = fixes.filter((f) => {
    const key = `${f.beaconId}\n${f.recordedAt}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) => a.recordedAt - b.recordedAt || (a.beaconId < b.beaconId ? -1 : a.beaconId > b.beaconId ? 1 : 0),
  );
}

/** Packs fixes (any order, duplicates allowed: see normalize) into one blob. */
export function encodeFixes(input: readonly StoredFix[]): Uint8Array {
  const fixes = normalize(input);
  const out = new ByteWriter();
  out.byte(FORMAT);
  out.unsigned(fixes.length);
  const beacons = [...new Set(fixes.map((f) => f.beaconId))];
  out.unsigned(beacons.length);
  const utf8 = new TextEncoder();
  for (const id of beacons) {
    const bytes = utf8.encode(id);
    out.unsigned(bytes.length);
    out.bytes(bytes);
  }
  const index = new Map(beacons.map((id, i) => [id, i]));
  if (beacons.length > 1)
    writeColumn(
      out,
      fixes.map((f) => index.get(f.beaconId)!),
      0,
    );
  for (const field of NUMERIC_FIELDS)
    writeColumn(
      out,
      fixes.map((f) => f[field]),
      MAX_SCALE,
      field === "speed",
    );
  writeColumn(
    out,
    fixes.map((f) => (f.ignition === null ? null : f.ignition ? 1 : 0)),
    0,
  );
  return out.finish();
}

export function decodeFixes(blob: Uint8Array): StoredFix[] {
  const input = new ByteReader(blob);
  const format = input.byte();
  if (format !== FORMAT) throw new Error(`positions blob: unknown format ${format}`);
  const n = input.unsigned();
  const beacons: string[] = [];
  const utf8 = new TextDecoder();
  for (let b = input.unsigned(); b > 0; b--) beacons.push(utf8.decode(input.take(input.unsigned())));
  const beaconOf = beacons.length > 1 ? readColumn(input, n) : new Array<number>(n).fill(0);
  const columns = Object.fromEntries(NUMERIC_FIELDS.map((field) => [field, readColumn(input, n)])) as Record<
    (typeof NUMERIC_FIELDS)[number],
    Column
  >;
  const ignition = readColumn(input, n);
  return Array.from({ length: n }, (_, i): StoredFix => ({
    beaconId: beacons[beaconOf[i]!]!,
    recordedAt: columns.recordedAt[i]!,
    latitude: columns.latitude[i]!,
    longitude: columns.longitude[i]!,
    speed: columns.speed[i]!,
    heading: columns.heading[i]!,
    altitude: columns.altitude[i]!,
    accuracy: columns.accuracy[i]!,
    battery: columns.battery[i]!,
    ignition: ignition[i] === null ? null : ignition[i] === 1,
    fuel: columns.fuel[i]!,
    odometer: columns.odometer[i]!,
    receivedAt: columns.receivedAt[i]!,
  }));
}

/** Merges blobs' fixes with new ones: older blobs first, so a fix stored earlier wins over a resent one. */
export function mergeFixes(...parts: readonly (readonly StoredFix[])[]): StoredFix[] {
  return normalize(parts.flat());
}

/**
 * One append's fixes, several vehicles in one blob (the raw tier writes one row per append):
 * the vehicles' count, then each vehicle's id and its own blob (encodeFixes).
 */
export function encodeAppend(byVehicle: ReadonlyMap<string, readonly StoredFix[]>): Uint8Array {
  const out = new ByteWriter();
  out.byte(FORMAT);
  out.unsigned(byVehicle.size);
  const utf8 = new TextEncoder();
  for (const [vehicleId, fixes] of byVehicle) {
    const id = utf8.encode(vehicleId);
    const blob = encodeFixes(fixes);
    out.unsigned(id.length);
    out.bytes(id);
    out.unsigned(blob.length);
    out.bytes(blob);
  }
  return out.finish();
}

/** Each vehicle's blob of an append (decodeFixes reads it), by vehicle id. */
export function decodeAppend(blob: Uint8Array): Map<string, Uint8Array> {
  const input = new ByteReader(blob);
  const format = input.byte();
  if (format !== FORMAT) throw new Error(`positions append: unknown format ${format}`);
  const utf8 = new TextDecoder();
  const out = new Map<string, Uint8Array>();
  for (let n = input.unsigned(); n > 0; n--) {
    const vehicleId = utf8.decode(input.take(input.unsigned()));
    out.set(vehicleId, input.take(input.unsigned()));
  }
  return out;
}

// ---------------------------------------------------------------- columns

function scaled(v: number, k: number, unit: Unit = PLAIN): { q: number; exact: boolean; decoded: number } {
  const s = 10 ** k;
  const raw = unit.toStored(v) * s;
  if (!Number.isFinite(raw) || Math.abs(raw) > MAX_SCALED) return { q: 0, exact: false, decoded: unit.fromStored(0) };
  const rounded = Math.round(raw);
  const q = rounded === 0 ? 0 : rounded; // never -0: its sign is kept as an exception
  const decoded = unit.fromStored(q / s);
  return { q, exact: Object.is(decoded, v), decoded };
}

/** The difference of two doubles' bit patterns, as a signed 64-bit integer. */
function bitsOf(v: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  return view.getBigInt64(0);
}
function fromBits(bits: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigInt64(0, BigInt.asIntN(64, bits));
  return view.getFloat64(0);
}

function varintSize(z: number): number {
  return z < 128 ? 1 : z < 16_384 ? 2 : z < 2_097_152 ? 3 : z < 268_435_456 ? 4 : Math.ceil(Math.log2(z + 1) / 7);
}

/** The size of a column at scale k, to pick the smallest (exceptions counted at 4 bytes). */
function costAt(present: number[], k: number, unit: Unit): number {
  let previous = 0;
  let bytes = 0;
  for (const v of present) {
    const { q, exact } = scaled(v, k, unit);
    const d = q - previous;
    bytes += varintSize(d >= 0 ? d * 2 : -d * 2 - 1) + (exact ? 0 : 8);
    previous = q;
  }
  return bytes;
}

function bestScale(present: number[], maxScale: number, units: Unit[]): { k: number; unit: Unit } {
  let best = { k: 0, unit: PLAIN };
  let bestCost = Infinity;
  for (const unit of units) {
    for (let k = 0; k <= maxScale; k++) {
      const cost = costAt(present, k, unit);
      if (cost < bestCost) [best, bestCost] = [{ k, unit }, cost];
      if (present.every((v) => scaled(v, k, unit).exact)) break; // finer scales only grow the deltas
    }
  }
  return best;
}

function writeColumn(out: ByteWriter, values: Column, maxScale: number, tryKnots = false): void {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return out.byte(FLAG_ALL_NULL);
  const hasNulls = present.length < values.length;
  const constant = !hasNulls && present.every((v) => Object.is(v, present[0]));
  const { k, unit } = bestScale(
    constant ? present.slice(0, 1) : present,
    maxScale,
    tryKnots ? [PLAIN, KNOTS] : [PLAIN],
  );
  out.byte((hasNulls ? FLAG_NULLS : 0) | (constant ? FLAG_CONSTANT : 0) | unit.flag);
  out.byte(k);
  if (hasNulls) {
    const bitmap = new Uint8Array(Math.ceil(values.length / 8));
    values.forEach((v, i) => v !== null && (bitmap[i >> 3]! |= 1 << (i & 7)));
    out.bytes(bitmap);
  }
  const series = constant ? present.slice(0, 1) : present;
  const exceptions: { at: number; diff: bigint }[] = [];
  let previous = 0;
  series.forEach((v, i) => {
    const { q, exact, decoded } = scaled(v, k, unit);
    out.signed(q - previous);
    previous = q;
    if (!exact) exceptions.push({ at: i, diff: BigInt.asIntN(64, bitsOf(v) - bitsOf(decoded)) });
  });
  out.unsigned(exceptions.length);
  let last = 0;
  for (const e of exceptions) {
    out.unsigned(e.at - last);
    out.signed(e.diff);
    last = e.at;
  }
}

function readColumn(input: ByteReader, n: number): Column {
  const flags = input.byte();
  if (flags & FLAG_ALL_NULL) return new Array<number | null>(n).fill(null);
  const k = input.byte();
  const s = 10 ** k;
  const unit = flags & FLAG_KNOTS ? KNOTS : PLAIN;
  const bitmap = flags & FLAG_NULLS ? input.take(Math.ceil(n / 8)) : null;
  const count = bitmap ? bitmap.reduce((sum, b) => sum + popcount(b), 0) : n;
  const length = flags & FLAG_CONSTANT ? 1 : count;
  const series: number[] = [];
  let q = 0;
  for (let i = 0; i < length; i++) {
    q += input.signed();
    series.push(unit.fromStored(q / s));
  }
  let at = 0;
  for (let e = input.unsigned(); e > 0; e--) {
    at += input.unsigned();
    series[at] = fromBits(bitsOf(series[at]!) + input.signedBig());
  }
  if (flags & FLAG_CONSTANT) return new Array<number>(n).fill(series[0]!);
  let next = 0;
  return Array.from({ length: n }, (_, i) => (bitmap && !(bitmap[i >> 3]! & (1 << (i & 7))) ? null : series[next++]!));
}

function popcount(b: number): number {
  let c = 0;
  for (let x = b; x; x &= x - 1) c++;
  return c;
}
