import { and, eq, gte, inArray, isNotNull } from "drizzle-orm";
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
 * `no_rise_seen` for the REST answers (docs/decisions/0060): the fill-ups' vehicles' fuel events of
 * the checked days and whether their beacons send the fuel level, read from the rows the browser
 * syncs (the live events, the latest telemetry), then the shared rule (shared/costs/fuel-check.ts).
 * Callers settle the workspace first: both tables are written by its object's flush.
 */
export async function noRiseSeen(
  db: Db,
  workspaceId: string,
  fillUps: readonly CheckedFillUp[],
  now: number,
): Promise<Set<string>> {
  const judged = fillUps.filter((f) => f.at >= firstCheckedAt(now));
  if (!judged.length) return new Set();
  const reporting = new Set<string>();
  const events: SeenFuelEvent[] = [];
  for (const part of inLists(new Set(judged.map((f) => f.vehicleId)))) {
    const [fuelReported, seen] = await db.batch([
      db
        .select({ vehicleId: telemetry.vehicleId })
        .from(telemetry)
        .where(
          and(eq(telemetry.workspaceId, workspaceId), inArray(telemetry.vehicleId, part), isNotNull(telemetry.fuel)),
        ),
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
            inArray(vehicleEvents.vehicleId, part),
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
  return fillUpsWithNoRise(judged, events, (vehicleId) => reporting.has(vehicleId), now);
}
