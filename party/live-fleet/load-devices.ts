import { and, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { beacons, motionState, telemetry, vehicles, workspaces } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { newVehicleFold, type Latest, type VehicleFold } from "../../domain/fold/fold";
import type { OdometerState } from "../../domain/fold/gps-odometer";
import { ENGINE_HOURS_MODULE, initialEngineHours } from "../../domain/fold/engine-hours";
import { healthFieldsOf, type DeviceState } from "./live-store";
import type { MotionState } from "../../domain/fold/motion";

/**
 * What a workspace object reads from D1 about devices it does not know yet (docs/decisions/0016,
 * part 4): each beacon of THIS workspace among the ids (another workspace's id reads as unknown),
 * its health, and its vehicle's telemetry, detector state and ACTIVE flag, in one batch. From then
 * on the object owns them and D1 only hears from its flushes. A vehicle the object already holds
 * keeps its state (a rotated device id brings its vehicle along, not an older copy of it).
 */
export async function loadDevices(
  db: Db,
  workspaceId: string,
  deviceIds: string[],
): Promise<{ devices: DeviceState[]; vehicles: VehicleFold[] }> {
  if (!deviceIds.length) return { devices: [], vehicles: [] };
  const chunks = chunkRows(deviceIds, 2);
  // in-list: `ids` is one of `chunks` (50 devices and the workspace id); vehiclesOf is a subquery
  const mine = (ids: string[]) => and(inArray(beacons.id, ids), eq(beacons.workspaceId, workspaceId));
  const vehiclesOf = (ids: string[]) => db.select({ id: beacons.vehicleId }).from(beacons).where(mine(ids));
  const reads = chunks.flatMap((ids) => [
    db
      .select({ beacon: beacons, timeZone: workspaces.timeZone })
      .from(beacons)
      .innerJoin(workspaces, eq(workspaces.id, beacons.workspaceId))
      .where(mine(ids)),
    db
      .select()
      .from(telemetry)
      .where(inArray(telemetry.vehicleId, vehiclesOf(ids))),
    db
      .select()
      .from(motionState)
      .where(inArray(motionState.vehicleId, vehiclesOf(ids))),
    db
      .select({ id: vehicles.id, beaconStatus: vehicles.beaconStatus, engineSeconds: vehicles.engineSeconds })
      .from(vehicles)
      .where(inArray(vehicles.id, vehiclesOf(ids))),
  ]);
  const results = (await db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  const pick = <T>(k: number) => results.filter((_, i) => i % 4 === k).flat() as T[];
  type BeaconRow = { beacon: typeof beacons.$inferSelect; timeZone: string };
  const latestOf = new Map(pick<typeof telemetry.$inferSelect>(1).map((t) => [t.vehicleId, t]));
  const motionOf = new Map(pick<typeof motionState.$inferSelect>(2).map((m) => [m.vehicleId, m]));
  const vehicleRows = pick<{ id: string; beaconStatus: string; engineSeconds: number | null }>(3);
  const active = new Set(vehicleRows.filter((v) => v.beaconStatus === "ACTIVE").map((v) => v.id));
  const engineSecondsOf = new Map(vehicleRows.map((v) => [v.id, v.engineSeconds]));
  const rows = pick<BeaconRow>(0);
  return {
    devices: rows.map(({ beacon: b }) => deviceOf(b)),
    vehicles: rows.map(({ beacon: b, timeZone }) => {
      const stored = motionOf.get(b.vehicleId);
      const latest = latestOf.get(b.vehicleId);
      return {
        ...newVehicleFold(b.vehicleId, workspaceId),
        timeZone,
        latest: latest ? pickLatest(latest as Latest) : null,
        motion: (stored?.state as MotionState | undefined) ?? null,
        odometer: (stored?.odometer as OdometerState | null | undefined) ?? null,
        active: active.has(b.vehicleId),
        modules: withEngineHours(
          (stored?.modules as Record<string, unknown> | null | undefined) ?? {},
          engineSecondsOf.get(b.vehicleId) ?? null,
        ),
      };
    }),
  };
}

function deviceOf(b: typeof beacons.$inferSelect): DeviceState {
  return { deviceId: b.id, vehicleId: b.vehicleId, ...healthFieldsOf(b) };
}

/** Exactly the telemetry fields of a vehicle's latest state (a row read from D1 carries more). */
function pickLatest(l: Latest): Latest {
  const { status, statusTimestamp, speed, odometer, fuel, latitude, longitude, heading, recordedAt } = l;
  return { status, statusTimestamp, speed, odometer, fuel, latitude, longitude, heading, recordedAt };
}

/** Engine hours count on from the vehicle's total in D1 (set by an earlier object, or by hand), not from 0. */
function withEngineHours(modules: Record<string, unknown>, engineSeconds: number | null): Record<string, unknown> {
  if (engineSeconds === null || modules[ENGINE_HOURS_MODULE]) return modules;
  return { ...modules, [ENGINE_HOURS_MODULE]: initialEngineHours(engineSeconds) };
}
