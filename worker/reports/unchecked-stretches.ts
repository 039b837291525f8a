import { and, asc, eq, gte, inArray, isNotNull, lt } from "drizzle-orm";
import { firstCheckedAt } from "../../shared/costs/fuel-check";
import { FUEL_EVENT_TYPES } from "../../shared/fleet/vehicle-event";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { fuelEntries, telemetry, vehicleEvents } from "../../db/schema";
import { noRiseSeen } from "../fuel/rise-check";

/**
 * The stretches the cost report leaves out for `no_rise_seen` (docs/decisions/0064), named by their
 * closing fill-ups. The flag depends on the clock (the 2 h window passing, the checked days ending)
 * and on refuels the beacon's watch finds later, so it is never stored with a stretch: it is judged
 * here, when the report is read, by the one rule the Fuel page and the API use
 * (shared/costs/fuel-check.ts through worker/fuel/rise-check.ts).
 *
 * Only a vehicle whose beacon sends the fuel level and whose tank the watch has seen move in the
 * checked days can have such a fill-up, so the fill-ups of those vehicles alone are read, and only
 * those of the checked days before `end` (a fleet without fuel sensors reads none).
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
  const watched = await watchedVehicles(db, workspaceId, since);
  const read = [...watched].filter((id) => vehicleIds.has(id));
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
  return closersOf(fills, await noRiseSeen(db, workspaceId, fills, now));
}

/** Vehicles reporting a fuel level now with a fuel event since `since`. */
async function watchedVehicles(db: Db, workspaceId: string, since: number) {
  const rows = await db
    .selectDistinct({ vehicleId: vehicleEvents.vehicleId })
    .from(vehicleEvents)
    .innerJoin(telemetry, and(eq(telemetry.vehicleId, vehicleEvents.vehicleId), isNotNull(telemetry.fuel)))
    .where(
      and(
        eq(vehicleEvents.workspaceId, workspaceId),
        // in-list: the two fuel event types, a constant.
        inArray(vehicleEvents.type, [...FUEL_EVENT_TYPES]),
        eq(vehicleEvents.deleted, false),
        gte(vehicleEvents.startTime, since),
      ),
    )
    .all();
  return new Set(rows.map((r) => r.vehicleId));
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
