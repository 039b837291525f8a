import { and, eq, gt, inArray, isNull, or, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  FUTURE_SLACK_MS,
  fuelAfterPatch,
  fuelFieldsOf,
  odometerAtMiles,
  type FuelEntryPatch,
  type TripSpan,
  type FuelFields,
  type fuelEntryBodySchema,
} from "../../shared/costs/fuel";
import type { z } from "zod";
import { fuelTable } from "../../shared/costs/fuel-fields";
import type { Db } from "../../db/client";
import { fuelEntries, telemetry, vehicleEvents, vehicles } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { foreignPhotoIds } from "../photos/photo-store";
import { readVehicleLog, withFill, withoutFill, withStretches } from "./fuel-stretches";

/**
 * Logging, editing and deleting a fill-up (issue 42, docs/decisions/0045): the checks and the
 * writes, one copy for the REST routes (worker/api/fuel.ts) and the sync mutators
 * (worker/sync/fuel-mutators.ts), as service-writes.ts is for service. Everything is checked
 * first (another workspace's vehicle, entry or photo: a 404 ApiError; a bad field: a 400 naming
 * it), then the statements for the caller's one batch are returned, stamped with its version.
 * Each batch also cuts the vehicle's stored stretches again from the fill-up's moment on, by the
 * one rule (worker/fuel/fuel-stretches.ts); it fails whole if the vehicle's log changed meanwhile
 * (`fuelLogChanged`), and the caller tries again.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
export type FuelRow = typeof fuelEntries.$inferSelect;
type EntryInput = z.output<typeof fuelEntryBodySchema>;

/** The trips whose distance the odometer at a moment is worked back through (see odometerAtMiles). */
const TRIP_TYPES = ["TRANSIT", "TOW"];

/** The workspace's live vehicle with its tank and GPS odometer (metres), or a 404. */
export async function fuelVehicle(db: Db, workspaceId: string, vehicleId: string) {
  const row = await db
    .select({ id: vehicles.id, fuelTankLitres: vehicles.fuelTankLitres, odometer: telemetry.odometer })
    .from(vehicles)
    .leftJoin(telemetry, eq(telemetry.vehicleId, vehicles.id))
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .get();
  if (!row) throw notFound("No such vehicle in this workspace");
  return row;
}

/**
 * The vehicle's GPS odometer at `at`, from its odometer now and the trips it made since. Trips
 * dropped from the synced set are still rows (soft-deleted) until their tombstones are collected
 * after 30 days; a fill-up logged later than that for a moment before it reads a higher figure,
 * which the person logging it can correct.
 */
export async function odometerAt(
  db: Db,
  workspaceId: string,
  vehicle: { id: string; odometer: number | null },
  at: number,
) {
  const now = Date.now();
  if (vehicle.odometer === null) return null;
  return odometerAtMiles(vehicle.odometer, await tripsAfter(db, workspaceId, vehicle.id, at), at, now);
}

/** The vehicle's trips still under way or ended after `at` (what working a reading back to `at` takes off). */
export async function tripsAfter(db: Db, workspaceId: string, vehicleId: string, at: number): Promise<TripSpan[]> {
  return db
    .select({ startTime: vehicleEvents.startTime, endTime: vehicleEvents.endTime, distance: vehicleEvents.distance })
    .from(vehicleEvents)
    .where(
      and(
        eq(vehicleEvents.vehicleId, vehicleId),
        eq(vehicleEvents.workspaceId, workspaceId),
        // in-list: TRIP_TYPES, the constant list of trip event types
        inArray(vehicleEvents.type, TRIP_TYPES),
        or(isNull(vehicleEvents.endTime), gt(vehicleEvents.endTime, at)),
      ),
    )
    .all();
}

function refuseFuture(at: number, now: number) {
  if (at > now + FUTURE_SLACK_MS) throw badRequest("at: not in the future", { at: ["Not in the future"] });
}

async function refuseForeignPhotos(db: Db, workspaceId: string, photoIds: readonly string[]) {
  if ((await foreignPhotoIds(db, workspaceId, photoIds)).length) throw notFound("No such photo in this workspace");
}

/** Whether a fuel entry has this id already, in any workspace (a browser's id replayed, or taken). */
export async function fuelIdTaken(db: Db, entryId: string) {
  return (
    (await db.select({ id: fuelEntries.id }).from(fuelEntries).where(eq(fuelEntries.id, entryId)).get()) !== undefined
  );
}

/** A new fill-up; its odometer, when not given, is the vehicle's own at that moment. */
export async function fuelEntryWrites(
  db: Db,
  workspaceId: string,
  input: EntryInput,
  { id, userId, now }: { id: string; userId: string; now: number },
): Promise<{ row: FuelRow; tankLitres: number | null; writes: Writes }> {
  refuseFuture(input.at, now);
  const vehicle = await fuelVehicle(db, workspaceId, input.vehicleId);
  await refuseForeignPhotos(db, workspaceId, input.photoIds);
  const odometer = input.odometerMiles ?? (await odometerAt(db, workspaceId, vehicle, input.at));
  const log = await readVehicleLog(db, workspaceId, input.vehicleId);
  const row: FuelRow = {
    id,
    workspaceId,
    ...fuelFieldsOf(input, odometer),
    createdByUserId: userId,
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return {
    row,
    tankLitres: vehicle.fuelTankLitres,
    writes: (stamp) =>
      withStretches(db, workspaceId, log, withFill(log, row), row.at, [
        db.insert(fuelEntries).values({ ...row, version: stamp }),
      ]),
  };
}

const scoped = (workspaceId: string, entryId: string) =>
  and(eq(fuelEntries.id, entryId), eq(fuelEntries.workspaceId, workspaceId));

async function liveFuelEntry(db: Db, workspaceId: string, entryId: string): Promise<FuelRow> {
  const row = await db
    .select()
    .from(fuelEntries)
    .where(and(scoped(workspaceId, entryId), eq(fuelEntries.deleted, false)))
    .get();
  if (!row) throw notFound("No such fuel entry in this workspace");
  return row;
}

/** An entry edited (owners and admins): only the fields a patch names change; the vehicle never does. */
export async function fuelUpdateWrites(
  db: Db,
  workspaceId: string,
  entryId: string,
  patch: FuelEntryPatch,
  now: number,
): Promise<{ row: FuelRow; tankLitres: number | null; writes: Writes }> {
  const current = await liveFuelEntry(db, workspaceId, entryId);
  if (patch.at !== undefined) refuseFuture(patch.at, now);
  await refuseForeignPhotos(db, workspaceId, patch.photoIds ?? []);
  const vehicle = await fuelVehicle(db, workspaceId, current.vehicleId);
  const log = await readVehicleLog(db, workspaceId, current.vehicleId);
  const after = fuelAfterPatch(current, patch);
  const { at, volumeLitres, costCents, fullTank, odometerMiles, photoIds }: FuelFields = after;
  const fields = { at, volumeLitres, costCents, fullTank, odometerMiles, ...fuelTable.valuesOf(after), photoIds };
  return {
    row: after,
    tankLitres: vehicle.fuelTankLitres,
    writes: (stamp) =>
      withStretches(db, workspaceId, log, withFill(log, after), Math.min(current.at, after.at), [
        db
          .update(fuelEntries)
          .set({ ...fields, version: stamp })
          .where(scoped(workspaceId, entryId)),
      ]),
  };
}

/** An entry deleted (owners and admins): a tombstone, so the pull tells every device to drop it. */
export async function fuelDeleteWrites(db: Db, workspaceId: string, entryId: string): Promise<Writes> {
  const current = await liveFuelEntry(db, workspaceId, entryId);
  const log = await readVehicleLog(db, workspaceId, current.vehicleId);
  return (stamp) =>
    withStretches(db, workspaceId, log, withoutFill(log, entryId), current.at, [
      db.update(fuelEntries).set({ deleted: true, version: stamp }).where(scoped(workspaceId, entryId)),
    ]);
}
