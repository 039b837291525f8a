import type { FuelFields, FuelFlag } from "./fuel";

/**
 * Readings of a fill-up that cannot be right (DESIGN.md "Fuel, costs and renewals"), worked out
 * from the vehicle's own log, by the REST answers and the Fuel tab alike, so both say "check" on
 * the same entries. Flagged entries are shown, never silently used: fuel economy leaves them out.
 *
 * - `over_tank`: more litres than the vehicle's tank holds (with its capacity set).
 * - `odometer_backwards`: an odometer below one logged at an earlier fill-up.
 */
type Flaggable = Pick<FuelFields, "at" | "volumeLitres" | "odometerMiles"> & { id: string };

/**
 * Each entry's flags (only entries with some), for one vehicle's entries in any order.
 * `highestBefore` is the highest odometer logged before all of them (a range read from a longer log).
 */
export function fuelEntryFlags(
  entries: readonly Flaggable[],
  tankLitres: number | null,
  highestBefore: number | null = null,
): Map<string, FuelFlag[]> {
  const flags = new Map<string, FuelFlag[]>();
  const add = (entryId: string, flag: FuelFlag) => flags.set(entryId, [...(flags.get(entryId) ?? []), flag]);
  let highest = highestBefore ?? -Infinity;
  for (const e of [...entries].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))) {
    if (tankLitres !== null && e.volumeLitres > tankLitres) add(e.id, "over_tank");
    if (e.odometerMiles === null) continue;
    if (e.odometerMiles < highest) add(e.id, "odometer_backwards");
    else highest = e.odometerMiles;
  }
  return flags;
}
