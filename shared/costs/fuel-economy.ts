import type { FuelEconomy, FuelFlag } from "./fuel";

export type { FuelEconomy };
import { LITRES_PER_US_GALLON, METRES_PER_MILE } from "../units/units";
import { fuelEntryFlags } from "./fuel-flags";

/**
 * Fuel economy from a vehicle's fuel log (issue 42, DESIGN.md "Fuel, costs and renewals"), full tank
 * to full tank: from one full fill-up to the next, the distance is the odometer between them and the
 * fuel is everything put in after the first, partial fills included (they are carried into the
 * next full one). A stretch with a doubtful reading (an entry flagged over the tank or with its
 * odometer going backwards, or no odometer at either end) is left out of the figures, never used;
 * so is a stretch whose economy is far from the vehicle's own usual (`economy_outlier` on the
 * fill-up that closes it).
 *
 * In shared/ (docs/decisions/0060): the Fuel page works out the fleet's economy from the synced
 * store with the rule the API answers by (the Worker reads it from here too).
 */
export interface EconomyEntry {
  id: string;
  /** ms */
  at: number;
  volumeLitres: number;
  fullTank: boolean;
  odometerMiles: number | null;
  /** flags already found (shared/costs/fuel-flags.ts) */
  flags: readonly FuelFlag[];
}

/** A stretch whose miles per litre is beyond this factor of the vehicle's median (either way) is an outlier. */
export const OUTLIER_FACTOR = 2;
/** The median means something only with this many clean stretches. */
export const OUTLIER_MIN_STRETCHES = 3;

interface Stretch {
  end: EconomyEntry;
  /** the fill-ups after the opening full one, up to and including the closing one */
  fills: EconomyEntry[];
  miles: number;
  litres: number;
  doubtful: boolean;
}

/** The full-to-full stretches of a log, oldest first. Fill-ups before the first full one open nothing. */
export function stretchesOf(entries: readonly EconomyEntry[]): Stretch[] {
  const sorted = [...entries].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  const out: Stretch[] = [];
  let open: EconomyEntry | null = null;
  let fills: EconomyEntry[] = [];
  for (const e of sorted) {
    if (open) fills.push(e);
    if (!e.fullTank) continue;
    if (open) {
      const miles = open.odometerMiles !== null && e.odometerMiles !== null ? e.odometerMiles - open.odometerMiles : 0;
      const doubtful =
        open.odometerMiles === null ||
        e.odometerMiles === null ||
        miles <= 0 ||
        // The opening fill-up lends the stretch only its odometer; its volume is the stretch before.
        open.flags.includes("odometer_backwards") ||
        fills.some((f) => f.flags.length > 0);
      out.push({ end: e, fills, miles, litres: fills.reduce((s, f) => s + f.volumeLitres, 0), doubtful });
    }
    open = e;
    fills = [];
  }
  return out;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The fill-ups (by id) that close a stretch far from the vehicle's median, over its whole log. */
export function economyOutliers(entries: readonly EconomyEntry[]): Set<string> {
  const clean = stretchesOf(entries).filter((s) => !s.doubtful && s.litres > 0);
  if (clean.length < OUTLIER_MIN_STRETCHES) return new Set();
  const usual = median(clean.map((s) => s.miles / s.litres));
  return new Set(
    clean
      .filter((s) => {
        const rate = s.miles / s.litres;
        return rate > usual * OUTLIER_FACTOR || rate < usual / OUTLIER_FACTOR;
      })
      .map((s) => s.end.id),
  );
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * The economy of the stretches closed in [from, to) (all when not given), from the vehicle's whole
 * log (a stretch may open before `from`; outliers are judged against the whole history).
 */
export function fuelEconomy(entries: readonly EconomyEntry[], range: { from?: number; to?: number } = {}): FuelEconomy {
  const outliers = economyOutliers(entries);
  const inRange = (at: number) =>
    (range.from === undefined || at >= range.from) && (range.to === undefined || at < range.to);
  let miles = 0;
  let litres = 0;
  const used = new Set<string>();
  const flagged = new Set<string>();
  for (const s of stretchesOf(entries)) {
    if (!inRange(s.end.at)) continue;
    for (const f of s.fills) if (f.flags.length || outliers.has(f.id)) flagged.add(f.id);
    if (s.doubtful || outliers.has(s.end.id)) continue;
    miles += s.miles;
    litres += s.litres;
    for (const f of s.fills) used.add(f.id);
  }
  const km = (miles * METRES_PER_MILE) / 1000;
  return {
    mpg: litres > 0 ? round(miles / (litres / LITRES_PER_US_GALLON), 1) : null,
    litresPer100Km: km > 0 ? round((litres / km) * 100, 1) : null,
    distanceMiles: round(miles, 1),
    volumeLitres: round(litres, 2),
    entriesUsed: used.size,
    entriesFlagged: flagged.size,
  };
}

/**
 * The fleet's economy from its vehicles' own: the distance of every clean stretch over all their
 * fuel (a vehicle's flagged stretches are already out), not a mean of each vehicle's figure.
 */
export function fleetFuelEconomy(perVehicle: readonly FuelEconomy[]): FuelEconomy {
  const miles = perVehicle.reduce((s, e) => s + e.distanceMiles, 0);
  const litres = perVehicle.reduce((s, e) => s + e.volumeLitres, 0);
  const km = (miles * METRES_PER_MILE) / 1000;
  return {
    mpg: litres > 0 && miles > 0 ? round(miles / (litres / LITRES_PER_US_GALLON), 1) : null,
    litresPer100Km: km > 0 && litres > 0 ? round((litres / km) * 100, 1) : null,
    distanceMiles: round(miles, 1),
    volumeLitres: round(litres, 2),
    entriesUsed: perVehicle.reduce((s, e) => s + e.entriesUsed, 0),
    entriesFlagged: perVehicle.reduce((s, e) => s + e.entriesFlagged, 0),
  };
}

/** A log entry as a stored stretch reads it (no flags: the ones the log alone decides are found here). */
export type LoggedFill = Omit<EconomyEntry, "flags">;

/**
 * A full-to-full stretch as the cost report stores it (`fuel_stretches`, docs/decisions/0064 and
 * 0078): `stretchesOf` over the log with only the flags the log alone decides (`odometer_backwards`),
 * since over the tank and no rise seen can change without a fill-up changing and are judged when
 * the report reads. `rate` is miles per litre when nothing the log tells is doubtful.
 */
export interface StoredStretch {
  closeAt: number;
  closeId: string;
  miles: number;
  litres: number;
  largestLitres: number;
  doubtful: boolean;
  /** the highest odometer logged before the closing fill-up */
  highestBefore: number | null;
  rate: number | null;
}

/** A vehicle's stored stretches, oldest first, from its whole live log (any order). */
export function storedStretchesOf(log: readonly LoggedFill[]): StoredStretch[] {
  const flags = fuelEntryFlags(log, null);
  const highestBefore = new Map<string, number | null>();
  let highest: number | null = null;
  for (const e of [...log].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))) {
    highestBefore.set(e.id, highest);
    if (e.odometerMiles !== null && (highest === null || e.odometerMiles > highest)) highest = e.odometerMiles;
  }
  const entries = log.map((e) => ({ ...e, flags: flags.get(e.id) ?? [] }));
  return stretchesOf(entries).map((s) => ({
    closeAt: s.end.at,
    closeId: s.end.id,
    miles: s.miles,
    litres: s.litres,
    largestLitres: Math.max(...s.fills.map((f) => f.volumeLitres)),
    doubtful: s.doubtful,
    highestBefore: highestBefore.get(s.end.id) ?? null,
    rate: !s.doubtful && s.litres > 0 ? s.miles / s.litres : null,
  }));
}
