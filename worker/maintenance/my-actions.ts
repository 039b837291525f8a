import { and, eq, gte, inArray, gt, ne, sql } from "drizzle-orm";
import type { IssueJson } from "../../shared/issues";
import type { ServiceSchedule } from "../../shared/service";
import { dayOf, startOfDay } from "../../shared/time-zone";
import type { Db } from "../../db/client";
import { alertReads, alerts, inspections, issues, vehicleDayRollups, workspaces } from "../../db/schema";
import { toIssueJson } from "./issues";
import { vehicleReadings } from "./readings";
import { liveSchedules, toSchedule } from "./schedules";

/**
 * What is the signed-in member's to do (DESIGN.md "Maintenance", `GET /api/my-actions`): the
 * issues assigned to them and not closed, the workspace's service due soon or overdue, the
 * vehicles that drove today (in the workspace's time zone) without an inspection today, and how
 * many alerts they have not read.
 */
export interface MyActions {
  issues: IssueJson[];
  service: ServiceSchedule[];
  inspections: { vehicleId: string; vehicleName: string; day: string }[];
  unreadAlerts: number;
}

export async function myActions(db: Db, workspaceId: string, userId: string, now = Date.now()): Promise<MyActions> {
  const ws = await db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  const timeZone = ws?.timeZone ?? "UTC";
  const [assigned, service, uninspected, unreadAlerts] = await Promise.all([
    db
      .select()
      .from(issues)
      .where(
        and(
          eq(issues.workspaceId, workspaceId),
          eq(issues.deleted, false),
          eq(issues.assigneeUserId, userId),
          ne(issues.status, "closed"),
        ),
      )
      .all(),
    dueService(db, workspaceId, now),
    drivenWithoutInspection(db, workspaceId, dayOf(now, timeZone), timeZone),
    unreadAlertCount(db, workspaceId, userId),
  ]);
  return { issues: assigned.map(toIssueJson), service, inspections: uninspected, unreadAlerts };
}

/** Schedules due soon or overdue, overdue first, then by name. */
export async function dueService(db: Db, workspaceId: string, now: number): Promise<ServiceSchedule[]> {
  const [rows, readings] = await Promise.all([liveSchedules(db, workspaceId), vehicleReadings(db, workspaceId)]);
  return rows
    .filter((r) => readings.has(r.vehicleId))
    .map((r) => toSchedule(r, readings.get(r.vehicleId)!, now))
    .filter((s) => s.status !== "ok")
    .sort((a, b) => (a.status === b.status ? a.name.localeCompare(b.name) : a.status === "overdue" ? -1 : 1));
}

/** Vehicles with distance or a trip in today's rollup and no inspection submitted since today began. */
export async function drivenWithoutInspection(db: Db, workspaceId: string, day: string, timeZone: string) {
  const driven = await db
    .select({ vehicleId: vehicleDayRollups.vehicleId })
    .from(vehicleDayRollups)
    .where(
      and(
        eq(vehicleDayRollups.workspaceId, workspaceId),
        eq(vehicleDayRollups.day, day),
        sql`(${vehicleDayRollups.distanceMetres} > 0 OR ${vehicleDayRollups.trips} > 0)`,
      ),
    )
    .all();
  if (!driven.length) return [];
  const ids = driven.map((d) => d.vehicleId);
  const inspected = await db
    .select({ vehicleId: inspections.vehicleId })
    .from(inspections)
    .where(
      and(
        eq(inspections.workspaceId, workspaceId),
        eq(inspections.deleted, false),
        gte(inspections.submittedAt, startOfDay(day, timeZone)),
        inArray(inspections.vehicleId, ids),
      ),
    )
    .all();
  const done = new Set(inspected.map((i) => i.vehicleId));
  const names = await vehicleReadings(
    db,
    workspaceId,
    ids.filter((id) => !done.has(id)),
  );
  return [...names.values()]
    .map((v) => ({ vehicleId: v.id, vehicleName: v.name, day }))
    .sort((a, b) => a.vehicleName.localeCompare(b.vehicleName));
}

/** Alerts after the member's "all read" mark and not among the ones they opened. */
async function unreadAlertCount(db: Db, workspaceId: string, userId: string): Promise<number> {
  const reads = await db
    .select()
    .from(alertReads)
    .where(eq(alertReads.id, `${workspaceId}:${userId}`))
    .get();
  const readIds = reads?.readIds ?? [];
  const scope = [eq(alerts.workspaceId, workspaceId), eq(alerts.deleted, false), gt(alerts.at, reads?.readBefore ?? 0)];
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(alerts)
    .where(
      and(
        ...scope,
        readIds.length ? sql`${alerts.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(readIds)}))` : undefined,
      ),
    )
    .get();
  return row?.n ?? 0;
}
