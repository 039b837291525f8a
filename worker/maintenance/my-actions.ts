import { and, eq, gte, gt, ne, sql } from "drizzle-orm";
import type { IssueJson } from "../../shared/maintenance/issues";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import { dayAround, droveWithoutInspection } from "../../shared/maintenance/drove-without-inspection";
import type { Db } from "../../db/client";
import { alertReads, alerts, inspections, issues, vehicleEvents, vehicles, workspaces } from "../../db/schema";
import { toIssueJson } from "./issues";
import { vehicleReadings } from "./readings";
import { liveSchedules, toSchedule } from "./schedules";
import type { Renewal } from "../../shared/costs/renewals";
import { dueRenewals } from "../costs/renewal-list";
import { can } from "../../shared/account/roles";
import type { PartJson, WorkOrderJson } from "../../shared/maintenance/work-orders";
import { linesByOrder, listParts, listWorkOrders, toPartJson, toWorkOrderJson } from "./work-order-rows";

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
  /** Renewals due soon or overdue (issue 42), overdue first. */
  renewals: Renewal[];
  /** Work orders assigned to the caller, neither completed nor cancelled (issue 55), newest first. */
  workOrders: WorkOrderJson[];
  /** Parts at or below their reorder point, for owners and admins (empty for others). */
  parts: PartJson[];
}

export async function myActions(
  db: Db,
  workspaceId: string,
  userId: string,
  now = Date.now(),
  role: string | null = null,
): Promise<MyActions> {
  const ws = await db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  const timeZone = ws?.timeZone ?? "UTC";
  const [assigned, service, uninspected, unreadAlerts, renewals, workOrders, parts] = await Promise.all([
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
    drivenWithoutInspection(db, workspaceId, now, timeZone),
    unreadAlertCount(db, workspaceId, userId),
    dueRenewals(db, workspaceId, now),
    assignedWorkOrders(db, workspaceId, userId),
    can(role, "maintenance.manage") ? listParts(db, workspaceId, true) : Promise.resolve([]),
  ]);
  return {
    issues: assigned.map(toIssueJson),
    service,
    inspections: uninspected,
    unreadAlerts,
    renewals,
    workOrders,
    parts: parts.map(toPartJson),
  };
}

/** The caller's work orders still to do, with their totals. */
async function assignedWorkOrders(db: Db, workspaceId: string, userId: string): Promise<WorkOrderJson[]> {
  const rows = await listWorkOrders(db, workspaceId, { status: "active", assigneeUserId: userId });
  const lines = await linesByOrder(
    db,
    workspaceId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toWorkOrderJson(r, lines.get(r.id) ?? []));
}

/** Names as people read numbers ("Van 2" before "Van 10"), as the browser's vehicle list sorts them. */
const compareNames = new Intl.Collator("en", { numeric: true }).compare;

/** Schedules due soon or overdue, overdue first, then by name. */
export async function dueService(db: Db, workspaceId: string, now: number): Promise<ServiceSchedule[]> {
  const [rows, readings] = await Promise.all([liveSchedules(db, workspaceId), vehicleReadings(db, workspaceId)]);
  return rows
    .filter((r) => readings.has(r.vehicleId))
    .map((r) => toSchedule(r, readings.get(r.vehicleId)!, now))
    .filter((s) => s.status !== "ok")
    .sort((a, b) => (a.status === b.status ? a.name.localeCompare(b.name) : a.status === "overdue" ? -1 : 1));
}

/**
 * Vehicles that drove today without today's inspection, by the one rule the browser applies
 * (shared/maintenance/drove-without-inspection.ts) to the same rows it syncs: each live vehicle's latest live
 * trip in vehicle_events (the latest is the one that can fall on today: trips follow one another)
 * and the inspections submitted since the workspace's midnight.
 */
export async function drivenWithoutInspection(db: Db, workspaceId: string, now: number, timeZone: string) {
  const day = dayAround(now, timeZone);
  const latestTrip = sql`(SELECT x.id FROM vehicle_events x WHERE x.vehicle_id = ${vehicles.id} AND x.type = 'TRANSIT'
    AND x.deleted = 0 ORDER BY x.start_time DESC LIMIT 1)`;
  const [trips, inspected] = await Promise.all([
    db
      .select({
        id: vehicles.id,
        name: vehicles.name,
        type: vehicleEvents.type,
        startTime: vehicleEvents.startTime,
        endTime: vehicleEvents.endTime,
      })
      .from(vehicles)
      .innerJoin(vehicleEvents, eq(vehicleEvents.id, latestTrip))
      .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
      .all(),
    db
      .select({ vehicleId: inspections.vehicleId, submittedAt: inspections.submittedAt })
      .from(inspections)
      .where(
        and(
          eq(inspections.workspaceId, workspaceId),
          eq(inspections.deleted, false),
          gte(inspections.submittedAt, day.start),
        ),
      )
      .all(),
  ]);
  const byId = new Map(trips.map((t) => [t.id, t]));
  return droveWithoutInspection({ vehicles: trips, tripsOf: (id) => [byId.get(id)!], inspections: inspected, day })
    .map((v) => ({ vehicleId: v.id, vehicleName: v.name, day: day.day }))
    .sort((a, b) => compareNames(a.vehicleName, b.vehicleName) || (a.vehicleId < b.vehicleId ? -1 : 1));
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
