import { and, eq, gte, inArray, isNotNull, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import {
  fillUpsWithNoRise,
  firstCheckedAt,
  type CheckedFillUp,
  type SeenFuelEvent,
} from "../../shared/costs/fuel-check";
import { FUEL_EVENT_TYPES, type FuelEventType } from "../../shared/fleet/vehicle-event";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { telemetry, vehicleEvents } from "../../db/schema";

/**
 * What the rule holds fill-ups against (docs/decisions/0060): the vehicles whose beacons send the
 * fuel level now (their latest telemetry carries one), and the vehicles' fuel events of the
 * checked days, read from the rows the browser syncs.
 */
export interface FuelWatch {
  reporting: ReadonlySet<string>;
  events: readonly SeenFuelEvent[];
}

/**
 * `no_rise_seen` for the REST answers: the fill-ups' vehicles' watch, then the shared rule
 * (shared/costs/fuel-check.ts). Callers settle the workspace first: both tables are written by its
 * object's flush.
 */
export async function noRiseSeen(
  db: Db,
  workspaceId: string,
  fillUps: readonly CheckedFillUp[],
  now: number,
): Promise<Set<string>> {
  const judged = fillUps.filter((f) => f.at >= firstCheckedAt(now));
  if (!judged.length) return new Set();
  return noRiseIn(judged, await readFuelWatch(db, workspaceId, now, new Set(judged.map((f) => f.vehicleId))), now);
}

/** `noRiseSeen` over a watch the caller has read already (the cost report reads the whole workspace's once). */
export function noRiseIn(fillUps: readonly CheckedFillUp[], watch: FuelWatch, now: number): Set<string> {
  const judged = fillUps.filter((f) => f.at >= firstCheckedAt(now));
  return fillUpsWithNoRise(judged, watch.events, (vehicleId) => watch.reporting.has(vehicleId), now);
}

/** The vehicles the watch can judge at all: those sending the level whose tank was seen to move in the checked days. */
export function watchedVehicles(watch: FuelWatch): Set<string> {
  return new Set(watch.events.map((e) => e.vehicleId).filter((id) => watch.reporting.has(id)));
}

/**
 * The watch of these vehicles, or of every vehicle of the workspace (`vehicleIds` left out: one
 * pass with no `IN` list); telemetry and events in one round trip per list.
 */
export async function readFuelWatch(
  db: Db,
  workspaceId: string,
  now: number,
  vehicleIds?: ReadonlySet<string>,
): Promise<FuelWatch> {
  const lists: ((column: SQLiteColumn) => SQL | undefined)[] = vehicleIds
    ? inLists(vehicleIds).map((part) => (column) => inArray(column, part))
    : [() => undefined];
  const reporting = new Set<string>();
  const events: SeenFuelEvent[] = [];
  for (const vehiclesIn of lists) {
    const [fuelReported, seen] = await db.batch([
      db
        .select({ vehicleId: telemetry.vehicleId })
        .from(telemetry)
        .where(and(eq(telemetry.workspaceId, workspaceId), vehiclesIn(telemetry.vehicleId), isNotNull(telemetry.fuel))),
      db
        .select({
          id: vehicleEvents.id,
          vehicleId: vehicleEvents.vehicleId,
          type: vehicleEvents.type,
          startTime: vehicleEvents.startTime,
          endTime: vehicleEvents.endTime,
        })
        .from(vehicleEvents)
        .where(
          and(
            eq(vehicleEvents.workspaceId, workspaceId),
            vehiclesIn(vehicleEvents.vehicleId),
            // in-list: the two fuel event types, a constant.
            inArray(vehicleEvents.type, [...FUEL_EVENT_TYPES]),
            eq(vehicleEvents.deleted, false),
            gte(vehicleEvents.startTime, firstCheckedAt(now)),
          ),
        ),
    ]);
    for (const t of fuelReported) reporting.add(t.vehicleId);
    for (const e of seen) events.push({ ...e, type: e.type as FuelEventType });
  }
  return { reporting, events };
}
