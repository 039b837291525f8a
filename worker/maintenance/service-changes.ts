import { and, eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import {
  NO_INTERVAL_MESSAGE,
  scheduleAfterPatch,
  type serviceSchedulePatchSchema,
} from "../../shared/maintenance/service";
import { serviceScheduleTable } from "../../shared/maintenance/service-schedule-fields";
import type { Db } from "../../db/client";
import { serviceEntries, serviceSchedules } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import type { VehicleRow } from "./readings";
import { readingOrNotFound, refuseFutureLastDone } from "./service-writes";
import type { EntryRow, ScheduleRow } from "./schedules";

/**
 * Editing and deleting a schedule, and deleting a service entry (owners and admins, issue 32;
 * docs/decisions/0040-managing-schedules.md): the checks and the writes, one copy for the REST
 * routes (worker/api/service.ts) and the sync mutators (worker/sync/service-mutators.ts), as
 * service-writes.ts does for adding. Another workspace's id, or one already deleted, is a 404
 * ApiError before anything is written; a delete is a tombstone (`deleted`, a new version), so the
 * pull tells every device to drop its copy.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
type SchedulePatch = z.output<typeof serviceSchedulePatchSchema>;

const scopedSchedule = (workspaceId: string, id: string) =>
  and(eq(serviceSchedules.id, id), eq(serviceSchedules.workspaceId, workspaceId));
const scopedEntry = (workspaceId: string, id: string) =>
  and(eq(serviceEntries.id, id), eq(serviceEntries.workspaceId, workspaceId));

async function liveSchedule(db: Db, workspaceId: string, id: string): Promise<ScheduleRow> {
  const row = await db
    .select()
    .from(serviceSchedules)
    .where(and(scopedSchedule(workspaceId, id), eq(serviceSchedules.deleted, false)))
    .get();
  if (!row) throw notFound("No such service schedule in this workspace");
  return row;
}

async function liveEntry(db: Db, workspaceId: string, id: string): Promise<EntryRow> {
  const row = await db
    .select()
    .from(serviceEntries)
    .where(and(scopedEntry(workspaceId, id), eq(serviceEntries.deleted, false)))
    .get();
  if (!row) throw notFound("No such service entry in this workspace");
  return row;
}

/**
 * A schedule edited: its name, intervals or last-done basis. Changing an interval keeps when it was
 * last done (the due figures count from there with the new interval) and starts a new notification
 * cycle, so the new status is announced afresh and an old "overdue" does not stick to it. Left
 * without an interval: 400 on the miles field, as "Add schedule" answers.
 */
export async function scheduleUpdateWrites(
  db: Db,
  workspaceId: string,
  id: string,
  patch: SchedulePatch,
  now: number,
): Promise<{ row: ScheduleRow; reading: VehicleRow; writes: Writes }> {
  const current = await liveSchedule(db, workspaceId, id);
  const after = scheduleAfterPatch(current, patch, now);
  if (!after) throw badRequest(`everyMiles: ${NO_INTERVAL_MESSAGE}`, { everyMiles: [NO_INTERVAL_MESSAGE] });
  refuseFutureLastDone(after.schedule.lastDoneAt, now);
  const reading = await readingOrNotFound(db, workspaceId, current.vehicleId);
  const { lastDoneAt, lastDoneOdometerMiles, lastDoneEngineHours } = after.schedule;
  // Only what an edit may change is written (never the workspace, vehicle or cycle it read).
  const fields = {
    ...serviceScheduleTable.valuesOf(after.schedule),
    lastDoneAt,
    lastDoneOdometerMiles,
    lastDoneEngineHours,
  };
  const newCycle = after.intervalsChanged ? { cycle: current.cycle + 1, announced: null } : {};
  return {
    row: { ...current, ...fields, ...newCycle },
    reading,
    writes: (stamp) => [
      db
        .update(serviceSchedules)
        .set({
          ...fields,
          ...(after.intervalsChanged ? { cycle: sql`${serviceSchedules.cycle} + 1`, announced: null } : {}),
          version: stamp,
        })
        .where(scopedSchedule(workspaceId, id)),
    ],
  };
}

/**
 * A schedule deleted: gone from the lists, My actions and the due check (they read live rows
 * only). The entries that completed it keep its id in their `scheduleIds`, as history.
 */
export async function scheduleDeleteWrites(db: Db, workspaceId: string, id: string): Promise<Writes> {
  await liveSchedule(db, workspaceId, id);
  return (stamp) => [
    db.update(serviceSchedules).set({ deleted: true, version: stamp }).where(scopedSchedule(workspaceId, id)),
  ];
}

/**
 * A service entry deleted (logged by mistake). What it did stays done: the schedules it restarted
 * keep their new basis and the issues it resolved stay resolved (ADR 0040), so an owner corrects
 * those by editing the schedule or reopening the issue.
 */
export async function entryDeleteWrites(db: Db, workspaceId: string, id: string): Promise<Writes> {
  await liveEntry(db, workspaceId, id);
  return (stamp) => [
    db.update(serviceEntries).set({ deleted: true, version: stamp }).where(scopedEntry(workspaceId, id)),
  ];
}
