import { eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import {
  doneAt,
  lastDoneAtMs,
  latestServiceDay,
  type serviceEntryBodySchema,
  type serviceScheduleBodySchema,
} from "../../shared/maintenance/service";
import { serviceEntryTable } from "../../shared/maintenance/service-entry-fields";
import { serviceScheduleTable } from "../../shared/maintenance/service-schedule-fields";
import type { Db } from "../../db/client";
import { serviceEntries, serviceSchedules } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { foreignPhotoIds } from "../photos/photo-store";
import { resolveIssueWrites } from "./issue-links";
import { vehicleReadings, type VehicleRow } from "./readings";
import { restartWrites, schedulesByIds, type EntryRow, type ScheduleRow } from "./schedules";

/**
 * Logging service and adding a schedule (DESIGN.md "Maintenance"): the checks and the writes, one
 * copy for the REST routes (worker/api/service.ts) and the sync mutators
 * (worker/sync/service-mutators.ts). Each checks everything first (another workspace's vehicle,
 * schedule, issue or photo: a 404 ApiError; a bad field: a 400 with its field) and then returns
 * the statements for the caller's one batch, stamped with its version: nothing half-written.
 */
type EntryInput = z.output<typeof serviceEntryBodySchema>;
type ScheduleInput = z.output<typeof serviceScheduleBodySchema>;
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];

/** Whether a service entry or schedule has this id already, in any workspace (a browser's id replayed, or taken). */
export async function serviceIdTaken(db: Db, table: "entry" | "schedule", id: string) {
  const t = table === "entry" ? serviceEntries : serviceSchedules;
  return (await db.select({ id: t.id }).from(t).where(eq(t.id, id)).get()) !== undefined;
}

export async function readingOrNotFound(db: Db, workspaceId: string, vehicleId: string): Promise<VehicleRow> {
  const reading = (await vehicleReadings(db, workspaceId, [vehicleId])).get(vehicleId);
  if (!reading) throw notFound("No such vehicle in this workspace");
  return reading;
}

/**
 * A service entry, the schedules it completes (restarted) and the issues it resolves. `id` is a
 * new UUID over REST, the browser's over sync; `userId` is who logged it.
 */
export async function serviceEntryWrites(
  db: Db,
  workspaceId: string,
  input: EntryInput,
  { id, userId, now }: { id: string; userId: string; now: number },
): Promise<{ row: Omit<EntryRow, "version">; writes: Writes }> {
  if (input.date > latestServiceDay(now)) throw badRequest("date: not in the future", { date: ["Not in the future"] });
  const reading = await readingOrNotFound(db, workspaceId, input.vehicleId);
  const scheduleIds = [...new Set(input.scheduleIds)];
  const schedules = await schedulesByIds(db, workspaceId, scheduleIds);
  if (schedules.length !== scheduleIds.length || schedules.some((s) => s.vehicleId !== input.vehicleId)) {
    throw badRequest("scheduleIds: not a schedule of this vehicle", {
      scheduleIds: ["Not a schedule of this vehicle"],
    });
  }
  if ((await foreignPhotoIds(db, workspaceId, input.photoIds)).length)
    throw notFound("No such photo in this workspace");
  const resolvesIssueIds = [...new Set(input.resolvesIssueIds)];
  const resolves = await resolveIssueWrites(db, workspaceId, resolvesIssueIds, userId, now, id);
  const row = {
    id,
    workspaceId,
    vehicleId: input.vehicleId,
    date: input.date,
    ...serviceEntryTable.given(input),
    photoIds: input.photoIds,
    scheduleIds,
    resolvesIssueIds,
    createdByUserId: userId,
    deleted: false,
    createdVersion: null,
    createdAt: now,
    laborCents: null,
    partsCents: null,
    workOrderId: null,
  };
  const done = {
    day: input.date,
    at: doneAt(input.date, now),
    odometerMiles: row.odometerMiles,
    engineHours: row.engineHours,
  };
  return {
    row,
    writes: (stamp) => [
      db.insert(serviceEntries).values({ ...row, version: stamp }),
      ...restartWrites(db, workspaceId, schedules, done, reading, stamp),
      ...resolves(stamp),
    ],
  };
}

/** A schedule's "Last done on" may not be in the future (a minute's clock difference allowed): 400 on the field. */
export function refuseFutureLastDone(lastDoneAt: number, now: number) {
  if (lastDoneAt > now + 60_000)
    throw badRequest("lastDoneAt: not in the future", { lastDoneAt: ["Not in the future"] });
}

/** A new schedule of a vehicle of this workspace, counted from the vehicle's figures now unless told otherwise. */
export async function serviceScheduleWrites(
  db: Db,
  workspaceId: string,
  input: ScheduleInput,
  { id, now }: { id: string; now: number },
): Promise<{ row: Omit<ScheduleRow, "version">; reading: VehicleRow; writes: Writes }> {
  const reading = await readingOrNotFound(db, workspaceId, input.vehicleId);
  const lastDoneAt = lastDoneAtMs(input.lastDoneAt, now);
  refuseFutureLastDone(lastDoneAt, now);
  const row = {
    id,
    workspaceId,
    vehicleId: input.vehicleId,
    ...serviceScheduleTable.given(input),
    lastDoneAt,
    lastDoneOdometerMiles: input.lastDoneOdometerMiles ?? reading.odometerMiles,
    lastDoneEngineHours: input.lastDoneEngineHours ?? reading.engineHours,
    cycle: 0,
    announced: null,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return { row, reading, writes: (stamp) => [db.insert(serviceSchedules).values({ ...row, version: stamp })] };
}
