import { and, asc, eq, type SQL } from "drizzle-orm";
import { renewalStatus, type Renewal } from "../../shared/costs/renewals";
import { renewalTable } from "../../shared/costs/renewal-fields";
import { dayOf } from "../../shared/units/time-zone";
import type { Db } from "../../db/client";
import { renewals, vehicles, workspaces } from "../../db/schema";
import type { RenewalRow } from "./renewal-writes";

/** Today (YYYY-MM-DD) in the workspace's time zone: the day a renewal's status is judged on. */
export async function workspaceToday(db: Db, workspaceId: string, now: number): Promise<string> {
  const ws = await db
    .select({ timeZone: workspaces.timeZone })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  return dayOf(now, ws?.timeZone ?? "UTC");
}

/** The live renewals of the workspace's live vehicles (or one vehicle's), soonest due first. */
export async function liveRenewals(db: Db, workspaceId: string, vehicleId?: string): Promise<RenewalRow[]> {
  const where: SQL[] = [eq(renewals.workspaceId, workspaceId), eq(renewals.deleted, false)];
  if (vehicleId) where.push(eq(renewals.vehicleId, vehicleId));
  const rows = await db
    .select({ renewal: renewals })
    .from(renewals)
    .innerJoin(vehicles, and(eq(vehicles.id, renewals.vehicleId), eq(vehicles.deleted, false)))
    .where(and(...where))
    .orderBy(asc(renewals.dueDate), asc(renewals.id))
    .all();
  return rows.map((r) => r.renewal);
}

export const toRenewal = (r: RenewalRow, today: string): Renewal => ({
  id: r.id,
  vehicleId: r.vehicleId,
  ...renewalTable.valuesOf(r),
  photoIds: r.photoIds,
  status: renewalStatus(r, today),
  renewedAt: r.renewedAt === null ? null : new Date(r.renewedAt).toISOString(),
  createdAt: new Date(r.createdAt).toISOString(),
});

/** `GET /api/my-actions` "renewals": those due soon or overdue today, overdue first, then by due date. */
export async function dueRenewals(db: Db, workspaceId: string, now: number): Promise<Renewal[]> {
  const [today, rows] = await Promise.all([workspaceToday(db, workspaceId, now), liveRenewals(db, workspaceId)]);
  return rows
    .map((r) => toRenewal(r, today))
    .filter((r) => r.status !== "ok")
    .sort((a, b) => (a.status === b.status ? 0 : a.status === "overdue" ? -1 : 1));
}
