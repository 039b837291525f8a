import { and, asc, desc, eq, inArray, ne, type SQL } from "drizzle-orm";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { memberships, parts, vendors, workOrderLines, workOrders } from "../../db/schema";
import {
  isActiveWorkOrder,
  lineCents,
  needsReorder,
  workOrderTotals,
  type PartJson,
  type VendorJson,
  type WorkOrderJson,
  type WorkOrderLineJson,
  type WorkOrderStatus,
} from "../../shared/maintenance/work-orders";
import { workOrderTable } from "../../shared/maintenance/work-order-fields";
import { partTable } from "../../shared/maintenance/part-fields";
import { vendorTable } from "../../shared/maintenance/vendor-fields";
import { placedAfter } from "../../shared/fields/field-table";
import { ApiError, badRequest, notFound } from "../lib/errors";

/**
 * Work orders, lines, parts and vendors in D1 (issue 55, docs/decisions/0087): the rows read by the
 * REST routes and the sync mutators alike, scoped to one workspace (another workspace's id reads as
 * absent: a 404), and their REST answers.
 */
export type WorkOrderRow = typeof workOrders.$inferSelect;
export type LineRow = typeof workOrderLines.$inferSelect;
export type PartRow = typeof parts.$inferSelect;
export type VendorRow = typeof vendors.$inferSelect;

/** A refusal of the order's state (lines on a completed order, completing twice): 409. */
export const conflict = (message: string) => new ApiError(409, "conflict", message);

const iso = (ms: number) => new Date(ms).toISOString();

export async function workOrderIn(db: Db, workspaceId: string, id: string): Promise<WorkOrderRow> {
  const row = await db
    .select()
    .from(workOrders)
    .where(and(eq(workOrders.id, id), eq(workOrders.workspaceId, workspaceId), eq(workOrders.deleted, false)))
    .get();
  if (!row) throw notFound("No such work order in this workspace");
  return row;
}

/** The order's live lines, oldest first. */
export function linesOf(db: Db, workspaceId: string, workOrderId: string): Promise<LineRow[]> {
  return db
    .select()
    .from(workOrderLines)
    .where(
      and(
        eq(workOrderLines.workspaceId, workspaceId),
        eq(workOrderLines.workOrderId, workOrderId),
        eq(workOrderLines.deleted, false),
      ),
    )
    .orderBy(asc(workOrderLines.createdAt), asc(workOrderLines.id))
    .all();
}

export async function lineIn(db: Db, workspaceId: string, workOrderId: string, lineId: string): Promise<LineRow> {
  const row = await db
    .select()
    .from(workOrderLines)
    .where(
      and(
        eq(workOrderLines.id, lineId),
        eq(workOrderLines.workspaceId, workspaceId),
        eq(workOrderLines.workOrderId, workOrderId),
        eq(workOrderLines.deleted, false),
      ),
    )
    .get();
  if (!row) throw notFound("No such line on this work order");
  return row;
}

/** Lines and everything else about an order can change only while it is not completed (reopen it first). */
export function refuseClosed(order: WorkOrderRow) {
  if (order.status === "completed") throw conflict(`Work order #${order.number} is completed: reopen it first`);
}

export async function partIn(db: Db, workspaceId: string, id: string): Promise<PartRow> {
  const row = await db
    .select()
    .from(parts)
    .where(and(eq(parts.id, id), eq(parts.workspaceId, workspaceId), eq(parts.deleted, false)))
    .get();
  if (!row) throw notFound("No such part in this workspace");
  return row;
}

export async function vendorIn(db: Db, workspaceId: string, id: string): Promise<VendorRow> {
  const row = await db
    .select()
    .from(vendors)
    .where(and(eq(vendors.id, id), eq(vendors.workspaceId, workspaceId), eq(vendors.deleted, false)))
    .get();
  if (!row) throw notFound("No such vendor in this workspace");
  return row;
}

/** A reference a body names that must be this workspace's: a 400 on its field, not a 404 of the route's own id. */
export async function asField<T>(field: string, message: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      throw badRequest(`${field}: ${message}`, { [field]: [message] });
    throw error;
  }
}

export async function checkMember(db: Db, workspaceId: string, userId: string, field: string) {
  const member = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .get();
  if (!member)
    throw badRequest(`${field}: not a member of this workspace`, { [field]: ["Choose a member of this workspace"] });
}

export interface WorkOrderFilter {
  status?: WorkOrderStatus | "active" | "all";
  vehicleId?: string;
  assigneeUserId?: string;
  vendorId?: string;
}

/** Orders matching the filter, newest number first, at most `limit`; `active` (the default): neither completed nor cancelled. */
export function listWorkOrders(db: Db, workspaceId: string, filter: WorkOrderFilter, limit = 500) {
  const scope: (SQL | undefined)[] = [eq(workOrders.workspaceId, workspaceId), eq(workOrders.deleted, false)];
  const status = filter.status ?? "all";
  if (status === "active") scope.push(ne(workOrders.status, "completed"), ne(workOrders.status, "cancelled"));
  else if (status !== "all") scope.push(eq(workOrders.status, status));
  if (filter.vehicleId) scope.push(eq(workOrders.vehicleId, filter.vehicleId));
  if (filter.assigneeUserId) scope.push(eq(workOrders.assigneeUserId, filter.assigneeUserId));
  if (filter.vendorId) scope.push(eq(workOrders.vendorId, filter.vendorId));
  return db
    .select()
    .from(workOrders)
    .where(and(...scope))
    .orderBy(desc(workOrders.number))
    .limit(limit)
    .all();
}

/** The live lines of these orders, by order. */
export async function linesByOrder(db: Db, workspaceId: string, orderIds: string[]): Promise<Map<string, LineRow[]>> {
  const byOrder = new Map<string, LineRow[]>(orderIds.map((id) => [id, []]));
  for (const part of inLists(orderIds)) {
    const rows = await db
      .select()
      .from(workOrderLines)
      .where(
        and(
          eq(workOrderLines.workspaceId, workspaceId),
          eq(workOrderLines.deleted, false),
          inArray(workOrderLines.workOrderId, part),
        ),
      )
      .orderBy(asc(workOrderLines.createdAt), asc(workOrderLines.id))
      .all();
    for (const r of rows) byOrder.get(r.workOrderId)?.push(r);
  }
  return byOrder;
}

export function toLineJson(row: LineRow): WorkOrderLineJson {
  return {
    id: row.id,
    workOrderId: row.workOrderId,
    kind: row.kind,
    description: row.description,
    quantity: row.quantity,
    unitCostCents: row.unitCostCents,
    costCents: lineCents(row),
    partId: row.partId,
    userId: row.userId,
    createdAt: iso(row.createdAt),
  };
}

/** The order as the API answers it, its totals from its lines (shared/costs/work-order-costs.ts); `withLines` adds them. */
export function toWorkOrderJson(row: WorkOrderRow, lines: LineRow[], withLines = false): WorkOrderJson {
  const json: WorkOrderJson = {
    id: row.id,
    number: row.number,
    vehicleId: row.vehicleId,
    status: row.status as WorkOrderStatus,
    assigneeUserId: row.assigneeUserId,
    vendorId: row.vendorId,
    ...workOrderTable.valuesOf(row),
    issueIds: row.issueIds,
    scheduleIds: row.scheduleIds,
    tasks: row.tasks,
    ...workOrderTotals(lines, row.taxCents),
    odometerMiles: row.odometerMiles,
    engineHours: row.engineHours,
    completedAt: row.completedAt === null ? null : iso(row.completedAt),
    completedByUserId: row.completedByUserId,
    signedName: row.signedName,
    photoIds: row.photoIds,
    signaturePhotoId: row.signaturePhotoId,
    serviceEntryId: row.serviceEntryId,
    createdByUserId: row.createdByUserId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
  if (withLines) json.lines = lines.map(toLineJson);
  return json;
}

export const isActive = (row: Pick<WorkOrderRow, "status">) => isActiveWorkOrder(row.status);

export function toPartJson(row: PartRow): PartJson {
  return {
    id: row.id,
    ...placedAfter(partTable.valuesOf(row), "unitCostCents", { quantityOnHand: row.quantityOnHand }),
    belowReorder: needsReorder(row),
    createdAt: iso(row.createdAt),
  };
}

export function toVendorJson(row: VendorRow): VendorJson {
  return { id: row.id, ...vendorTable.valuesOf(row), createdAt: iso(row.createdAt) };
}

/** The workspace's live parts (by name), or those at or below their reorder point. */
export async function listParts(db: Db, workspaceId: string, belowReorder = false): Promise<PartRow[]> {
  const rows = await db
    .select()
    .from(parts)
    .where(and(eq(parts.workspaceId, workspaceId), eq(parts.deleted, false)))
    .orderBy(asc(parts.name))
    .all();
  return belowReorder ? rows.filter(needsReorder) : rows;
}

export function listVendors(db: Db, workspaceId: string): Promise<VendorRow[]> {
  return db
    .select()
    .from(vendors)
    .where(and(eq(vendors.workspaceId, workspaceId), eq(vendors.deleted, false)))
    .orderBy(asc(vendors.name))
    .all();
}
