import { and, asc, eq, gte, inArray, lt } from "drizzle-orm";
import { firstCheckedAt } from "../../shared/costs/fuel-check";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";
import { noRiseIn, readFuelWatch, watchedVehicles } from "../fuel/rise-check";

/**
 * The stretches the cost report leaves out for `no_rise_seen` (docs/decisions/0064), named by their
 * closing fill-ups. The flag depends on the clock (the 2 h window passing, the checked days ending)
 * and on refuels the beacon's watch finds later, so it is never stored with a stretch: it is judged
 * here, when the report is read, by the one rule the Fuel page and the API use
 * (shared/costs/fuel-check.ts through worker/fuel/rise-check.ts).
 *
 * Only a vehicle whose beacon sends the fuel level and whose tank the watch has seen move in the
 * checked days can have such a fill-up, so the fill-ups of those vehicles alone are read, and only
 * those of the checked days before `end` (a fleet without fuel sensors reads none). The watch is
 * read once, for the whole workspace, and judges those fill-ups too: one read of telemetry, fuel
 * events and fill-ups each.
 */
export async function uncheckedStretches(
  db: Db,
  workspaceId: string,
  vehicleIds: ReadonlySet<string>,
  end: number,
  now: number,
): Promise<string[]> {
  const since = firstCheckedAt(now);
  if (end <= since) return [];
  // The whole workspace's watch, read once: it names the vehicles to read fill-ups of, and judges them.
  const watch = await readFuelWatch(db, workspaceId, now);
  const read = [...watchedVehicles(watch)].filter((id) => vehicleIds.has(id));
  const fills: { id: string; vehicleId: string; at: number; fullTank: boolean }[] = [];
  for (const part of inLists(read)) {
    fills.push(
      ...(await db
        .select({
          id: fuelEntries.id,
          vehicleId: fuelEntries.vehicleId,
          at: fuelEntries.at,
          fullTank: fuelEntries.fullTank,
        })
        .from(fuelEntries)
        .where(
          and(
            eq(fuelEntries.workspaceId, workspaceId),
            inArray(fuelEntries.vehicleId, part),
            eq(fuelEntries.deleted, false),
            gte(fuelEntries.at, since),
            lt(fuelEntries.at, end),
          ),
        )
        .orderBy(asc(fuelEntries.vehicleId), asc(fuelEntries.at), asc(fuelEntries.id))
        .all()),
    );
  }
  if (!fills.length) return [];
  return closersOf(fills, noRiseIn(fills, watch, now));
}

/**
 * The full fill-up closing the stretch of each flagged one (itself when full, else the next full one
 * of its vehicle), for fill-ups in log order. A flagged fill before a vehicle's first full one is in
 * no stretch; the full one after it closes nothing stored, so naming it changes nothing.
 */
function closersOf(fills: readonly { id: string; vehicleId: string; fullTank: boolean }[], flagged: Set<string>) {
  const out: string[] = [];
  let pending: string | null = null;
  for (const f of fills) {
    // A flagged partial fill whose closing one is after `end` leaves nothing pending for the next vehicle.
    if (pending !== f.vehicleId) pending = null;
    if (flagged.has(f.id)) pending = f.vehicleId;
    if (f.fullTank && pending === f.vehicleId) {
      out.push(f.id);
      pending = null;
    }
  }
  return out;
}
