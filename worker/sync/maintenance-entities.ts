import { and, eq, gt, gte } from "drizzle-orm";
import {
  announcedStatus,
  encodeInspection,
  encodeInspectionForm,
  encodeSchedule,
  encodeServiceEntry,
  firstSyncedEntryDay,
  inspectionFormKey,
  inspectionKey,
  serviceEntryKey,
  serviceScheduleKey,
  SYNCED_INSPECTION_MS,
} from "../../shared/sync/maintenance-sync";
import type { Db } from "../../db/client";
import { inspectionForms, inspections, serviceEntries, serviceSchedules } from "../../db/schema";
import type { Add, Rows } from "./add-rows";

/**
 * Service schedules, inspection forms, service entries and inspections in a pull
 * (docs/decisions/0033). A full answer carries every live schedule and form, the entries dated in
 * the last 90 days and the inspections of the last 7 days; older history is read over REST when
 * asked. An incremental answer carries every change since the cookie (tombstones included), so a
 * device sees an entry logged or removed elsewhere, whatever its date.
 */
export function maintenanceChangeQueries(db: Db, workspaceId: string, since: number, live: boolean, now = Date.now()) {
  const changed = <
    T extends typeof serviceSchedules | typeof serviceEntries | typeof inspectionForms | typeof inspections,
  >(
    t: T,
  ) =>
    live
      ? and(eq(t.workspaceId, workspaceId), gt(t.version, since), eq(t.deleted, false))
      : and(eq(t.workspaceId, workspaceId), gt(t.version, since));
  return [
    db.select().from(serviceSchedules).where(changed(serviceSchedules)),
    db.select().from(inspectionForms).where(changed(inspectionForms)),
    db
      .select()
      .from(serviceEntries)
      .where(
        live
          ? and(changed(serviceEntries), gte(serviceEntries.date, firstSyncedEntryDay(now)))
          : changed(serviceEntries),
      ),
    db
      .select()
      .from(inspections)
      .where(
        live
          ? and(changed(inspections), gte(inspections.submittedAt, now - SYNCED_INSPECTION_MS))
          : changed(inspections),
      ),
  ] as const;
}

export function addMaintenance(
  changes: {
    scheduleRows: Rows<typeof serviceSchedules>;
    formRows: Rows<typeof inspectionForms>;
    entryRows: Rows<typeof serviceEntries>;
    inspectionRows: Rows<typeof inspections>;
  },
  add: Add,
) {
  add(
    changes.scheduleRows,
    (r) => serviceScheduleKey(r.id),
    (r) => encodeSchedule({ ...r, announced: announcedStatus(r.announced, r.cycle) }),
  );
  add(
    changes.formRows,
    (r) => inspectionFormKey(r.id),
    (r) => encodeInspectionForm(r),
  );
  add(
    changes.entryRows,
    (r) => serviceEntryKey(r.id),
    (r) => encodeServiceEntry(r),
  );
  add(
    changes.inspectionRows,
    (r) => inspectionKey(r.id),
    (r) => encodeInspection(r),
  );
}
