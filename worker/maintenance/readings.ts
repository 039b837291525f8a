import { and, eq, inArray } from "drizzle-orm";
import { metresToMiles } from "../../shared/units";
import type { VehicleReading } from "../../shared/service";
import type { Db } from "../../db/client";
import { telemetry, vehicles } from "../../db/schema";

/**
 * Vehicles as the service rules see them: the odometer (the device's or the GPS distance, in
 * telemetry as metres) and the engine hours (vehicles.engine_seconds, domain/fold/engine-hours.ts),
 * both as the workspace's object last flushed them to D1.
 */
export interface VehicleRow extends VehicleReading {
  id: string;
  name: string;
}

export const SECONDS_PER_HOUR = 3600;

export function readingOf(row: { odometer: number | null; engineSeconds: number | null }): VehicleReading {
  return {
    odometerMiles: row.odometer === null ? null : round1(metresToMiles(row.odometer)),
    engineHours: row.engineSeconds === null ? null : round1(row.engineSeconds / SECONDS_PER_HOUR),
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The workspace's live vehicles with their readings (all of them when `ids` is absent). */
export async function vehicleReadings(db: Db, workspaceId: string, ids?: string[]): Promise<Map<string, VehicleRow>> {
  const scope = [eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)];
  if (ids) scope.push(inArray(vehicles.id, ids.length ? ids : [""]));
  const rows = await db
    .select({
      id: vehicles.id,
      name: vehicles.name,
      engineSeconds: vehicles.engineSeconds,
      odometer: telemetry.odometer,
    })
    .from(vehicles)
    .leftJoin(telemetry, eq(telemetry.vehicleId, vehicles.id))
    .where(and(...scope))
    .all();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, ...readingOf(r) }]));
}
