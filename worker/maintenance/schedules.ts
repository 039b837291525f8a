import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { BatchItem } from "drizzle-orm/batch";
import {
  restartedBasis,
  scheduleDue,
  type DoneService,
  type ServiceEntry,
  type ServiceSchedule,
  type VehicleReading,
} from "../../shared/maintenance/service";
import { serviceEntryTable } from "../../shared/maintenance/service-entry-fields";
import { serviceScheduleTable } from "../../shared/maintenance/service-schedule-fields";
import type { Db } from "../../db/client";
import { serviceEntries, serviceSchedules } from "../../db/schema";

/**
 * Service schedules and entries in D1 (DESIGN.md "Maintenance"): the rows as the REST API answers
 * them, and what a service entry changes in the schedules it completes.
 */
export type ScheduleRow = typeof serviceSchedules.$inferSelect;
export type EntryRow = typeof serviceEntries.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

export function toSchedule(row: ScheduleRow, reading: VehicleReading, now: number): ServiceSchedule {
  const due = scheduleDue(row, reading, now);
  const { id, vehicleId, lastDoneAt, lastDoneOdometerMiles, lastDoneEngineHours } = row;
  return {
    id,
    vehicleId,
    ...serviceScheduleTable.valuesOf(row),
    lastDoneAt: iso(lastDoneAt),
    lastDoneOdometerMiles,
    lastDoneEngineHours,
    status: due.status,
    nextDueMiles: due.nextDueMiles,
    nextDueAt: due.nextDueAt === null ? null : iso(due.nextDueAt),
    nextDueEngineHours: due.nextDueEngineHours,
  };
}

/** An entry as the REST API answers it, in the answer's order (the table's fields after the date). */
export function toEntry(row: EntryRow): ServiceEntry {
  const { id, vehicleId, date, photoIds, scheduleIds, resolvesIssueIds } = row;
  return {
    id,
    vehicleId,
    date,
    ...serviceEntryTable.valuesOf(row),
    photoIds,
    scheduleIds,
    resolvesIssueIds,
    createdAt: iso(row.createdAt),
  };
}

export function liveSchedules(db: Db, workspaceId: string, vehicleId?: string) {
  const scope = [eq(serviceSchedules.workspaceId, workspaceId), eq(serviceSchedules.deleted, false)];
  if (vehicleId) scope.push(eq(serviceSchedules.vehicleId, vehicleId));
  return db
    .select()
    .from(serviceSchedules)
    .where(and(...scope))
    .orderBy(serviceSchedules.name)
    .all();
}

export async function schedulesByIds(db: Db, workspaceId: string, ids: string[]): Promise<ScheduleRow[]> {
  const rows: ScheduleRow[] = [];
  for (const part of inLists(ids))
    rows.push(
      ...(await db
        .select()
        .from(serviceSchedules)
        .where(
          and(
            eq(serviceSchedules.workspaceId, workspaceId),
            eq(serviceSchedules.deleted, false),
            inArray(serviceSchedules.id, part),
          ),
        )
        .all()),
    );
  return rows;
}

/** The newest entries first; at most `limit` (history older than that is read page by page). */
export function liveEntries(db: Db, workspaceId: string, vehicleId: string | undefined, limit: number) {
  const scope = [eq(serviceEntries.workspaceId, workspaceId), eq(serviceEntries.deleted, false)];
  if (vehicleId) scope.push(eq(serviceEntries.vehicleId, vehicleId));
  return db
    .select()
    .from(serviceEntries)
    .where(and(...scope))
    .orderBy(desc(serviceEntries.date), desc(serviceEntries.createdAt))
    .limit(limit)
    .all();
}

/**
 * A service entry restarts each schedule it names (shared/maintenance/service.ts restartedBasis), in a new
 * cycle whose due notifications have not been sent.
 */
export function restartWrites(
  db: Db,
  workspaceId: string,
  schedules: ScheduleRow[],
  entry: DoneService,
  reading: VehicleReading,
  stamp: SQL<number>,
): BatchItem<"sqlite">[] {
  return schedules.flatMap((s) => {
    const basis = restartedBasis(s, entry, reading);
    if (!basis) return [];
    return [
      db
        .update(serviceSchedules)
        .set({ ...basis, cycle: sql`${serviceSchedules.cycle} + 1`, announced: null, version: stamp })
        .where(and(eq(serviceSchedules.id, s.id), eq(serviceSchedules.workspaceId, workspaceId))),
    ];
  });
}
