import { and, eq, inArray, type SQL } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import { metresToMiles } from "../../shared/units/units";
import type { VehicleReading } from "../../shared/maintenance/service";
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
  const read = (scope: SQL | undefined) =>
    db
      .select({
        id: vehicles.id,
        name: vehicles.name,
        engineSeconds: vehicles.engineSeconds,
        odometer: telemetry.odometer,
      })
      .from(vehicles)
      .leftJoin(telemetry, eq(telemetry.vehicleId, vehicles.id))
      .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false), scope))
      .all();
  const rows = [];
  if (!ids) rows.push(...(await read(undefined)));
  else for (const part of inLists(ids)) rows.push(...(await read(inArray(vehicles.id, part))));
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, ...readingOf(r) }]));
}
