import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { issues, parts, vendors, workOrderLines, workOrders } from "../../db/schema";
import type {
  PartPatch,
  VendorPatch,
  WorkOrderLinePatch,
  WorkOrderPatch,
  createWorkOrderBody,
  partBody,
  vendorBody,
  workOrderLineBody,
} from "../../shared/maintenance/work-orders";
import type { z } from "zod";
import { badRequest } from "../lib/errors";
import { workOrderTable } from "../../shared/maintenance/work-order-fields";
import { partTable } from "../../shared/maintenance/part-fields";
import { vendorTable } from "../../shared/maintenance/vendor-fields";
import { readingOrNotFound } from "./service-writes";
import { schedulesByIds } from "./schedules";
import {
  asField,
  checkMember,
  conflict,
  lineIn,
  partIn,
  refuseClosed,
  vendorIn,
  workOrderIn,
  type LineRow,
  type PartRow,
  type VendorRow,
  type WorkOrderRow,
} from "./work-order-rows";

/**
 * Creating and changing work orders, their lines, parts and vendors (issue 55, docs/decisions/0087):
 * the checks and the writes, one copy for the REST routes (worker/api/work-orders.ts, parts.ts) and
 * the sync mutators (worker/sync/work-order-mutators.ts), as service-writes.ts does for service.
 * Everything is checked first (the route's own id of another workspace: 404; a reference in the
 * body that is not this workspace's, a part of another workspace for one: 400 on its field), then
 * the statements for the caller's one versioned commit are returned.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
type CreateInput = z.output<typeof createWorkOrderBody>;
type LineInput = z.output<typeof workOrderLineBody>;

const nextNumber = (workspaceId: string) =>
  sql<number>`(SELECT COALESCE(MAX("number"), 0) + 1 FROM "work_orders" WHERE "workspace_id" = ${workspaceId})`;

/** Whether a row of this table has this id already, in any workspace (a browser's id replayed, or taken). */
export async function idTaken(
  db: Db,
  table: typeof workOrders | typeof workOrderLines | typeof parts | typeof vendors,
  id: string,
) {
  return (await db.select({ id: table.id }).from(table).where(eq(table.id, id)).get()) !== undefined;
}

/** The issues named are this workspace's and this vehicle's (400 on `issueIds` otherwise). */
async function checkIssues(db: Db, workspaceId: string, vehicleId: string, ids: string[]) {
  const found: { id: string; vehicleId: string }[] = [];
  for (const part of inLists(ids))
    found.push(
      ...(await db
        .select({ id: issues.id, vehicleId: issues.vehicleId })
        .from(issues)
        .where(and(eq(issues.workspaceId, workspaceId), eq(issues.deleted, false), inArray(issues.id, part)))
        .all()),
    );
  if (found.length !== ids.length || found.some((i) => i.vehicleId !== vehicleId))
    throw badRequest("issueIds: not an issue of this vehicle", { issueIds: ["Not an issue of this vehicle"] });
}

async function checkSchedules(db: Db, workspaceId: string, vehicleId: string, ids: string[]) {
  const found = await schedulesByIds(db, workspaceId, ids);
  if (found.length !== ids.length || found.some((s) => s.vehicleId !== vehicleId))
    throw badRequest("scheduleIds: not a schedule of this vehicle", {
      scheduleIds: ["Not a schedule of this vehicle"],
    });
}

/** Who does it: a member of the workspace, or a vendor of it (400 on the field otherwise). */
async function checkWhoDoesIt(
  db: Db,
  workspaceId: string,
  who: { assigneeUserId?: string | null; vendorId?: string | null },
) {
  if (who.assigneeUserId) await checkMember(db, workspaceId, who.assigneeUserId, "assigneeUserId");
  if (who.vendorId) {
    const vendorId = who.vendorId;
    await asField("vendorId", "Not a vendor of this workspace", () => vendorIn(db, workspaceId, vendorId));
  }
}

/** A new work order, numbered in its INSERT (as issues are: consecutive, never shared). */
export async function createWorkOrderWrites(
  db: Db,
  workspaceId: string,
  input: CreateInput,
  { id, userId, now }: { id: string; userId: string; now: number },
): Promise<{ writes: Writes }> {
  await readingOrNotFound(db, workspaceId, input.vehicleId);
  const issueIds = [...new Set(input.issueIds)];
  const scheduleIds = [...new Set(input.scheduleIds)];
  await checkIssues(db, workspaceId, input.vehicleId, issueIds);
  await checkSchedules(db, workspaceId, input.vehicleId, scheduleIds);
  await checkWhoDoesIt(db, workspaceId, input);
  const row = {
    id,
    workspaceId,
    number: nextNumber(workspaceId),
    vehicleId: input.vehicleId,
    status: "open",
    assigneeUserId: input.assigneeUserId ?? null,
    vendorId: input.vendorId ?? null,
    ...workOrderTable.given(input),
    issueIds,
    scheduleIds,
    tasks: input.tasks,
    createdByUserId: userId,
    createdAt: now,
    updatedAt: now,
  };
  return { writes: (stamp) => [db.insert(workOrders).values({ ...row, version: stamp })] };
}

const scopedOrder = (workspaceId: string, id: string) =>
  and(eq(workOrders.id, id), eq(workOrders.workspaceId, workspaceId));

/** An order changed: its status (not to or from completed: complete and reopen do that), who does it, when, what. */
export async function updateWorkOrderWrites(
  db: Db,
  workspaceId: string,
  id: string,
  patch: WorkOrderPatch,
  now: number,
): Promise<{ writes: Writes }> {
  const order = await workOrderIn(db, workspaceId, id);
  if (patch.status === "completed")
    throw badRequest("status: complete a work order with POST /api/work-orders/{id}/complete", {
      status: ["Use Complete: it resolves the issues, restarts the schedules and takes the parts"],
    });
  refuseClosed(order);
  const who = {
    assigneeUserId: patch.assigneeUserId === undefined ? order.assigneeUserId : patch.assigneeUserId,
    vendorId: patch.vendorId === undefined ? order.vendorId : patch.vendorId,
  };
  // Naming one clears the other: a job sent out has no mechanic, and the other way round.
  if (patch.assigneeUserId) who.vendorId = patch.vendorId ?? null;
  if (patch.vendorId) who.assigneeUserId = patch.assigneeUserId ?? null;
  await checkWhoDoesIt(db, workspaceId, { assigneeUserId: patch.assigneeUserId, vendorId: patch.vendorId });
  const set: Partial<WorkOrderRow> = { ...who, ...workOrderTable.named(patch), updatedAt: now };
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.tasks !== undefined) set.tasks = patch.tasks;
  if (patch.taxCents !== undefined) set.taxCents = patch.taxCents;
  return {
    writes: (stamp) => [
      db
        .update(workOrders)
        .set({ ...set, version: stamp })
        .where(scopedOrder(workspaceId, id)),
    ],
  };
}

/** An order deleted with its lines (owners and admins); a completed one is reopened first, so its effects are undone. */
export async function deleteWorkOrderWrites(db: Db, workspaceId: string, id: string): Promise<Writes> {
  const order = await workOrderIn(db, workspaceId, id);
  refuseClosed(order);
  return (stamp) => [
    db.update(workOrders).set({ deleted: true, version: stamp }).where(scopedOrder(workspaceId, id)),
    db
      .update(workOrderLines)
      .set({ deleted: true, version: stamp })
      .where(
        and(
          eq(workOrderLines.workspaceId, workspaceId),
          eq(workOrderLines.workOrderId, id),
          eq(workOrderLines.deleted, false),
        ),
      ),
  ];
}

/** The line's part is this workspace's and its worker a member (400 on the field otherwise). */
async function checkLineReferences(
  db: Db,
  workspaceId: string,
  refs: { partId?: string | null; userId?: string | null },
) {
  if (refs.partId) {
    const partId = refs.partId;
    await asField("partId", "Not a part of this workspace", () => partIn(db, workspaceId, partId));
  }
  if (refs.userId) await checkMember(db, workspaceId, refs.userId, "userId");
}

const touchOrder = (db: Db, workspaceId: string, order: WorkOrderRow, now: number, stamp: SQL<number>) =>
  db.update(workOrders).set({ updatedAt: now, version: stamp }).where(scopedOrder(workspaceId, order.id));

/** A line added to an order that is not completed. */
export async function addLineWrites(
  db: Db,
  workspaceId: string,
  workOrderId: string,
  input: LineInput,
  { id, now, addedAt = now }: { id: string; now: number; addedAt?: number },
): Promise<{ row: LineRow; writes: Writes }> {
  const order = await workOrderIn(db, workspaceId, workOrderId);
  refuseClosed(order);
  await checkLineReferences(db, workspaceId, input);
  const row: LineRow = {
    id,
    workspaceId,
    workOrderId,
    kind: input.kind,
    description: input.description || null,
    quantity: input.quantity,
    unitCostCents: input.unitCostCents,
    partId: input.partId ?? null,
    userId: input.userId ?? null,
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: addedAt,
  };
  return {
    row,
    writes: (stamp) => [
      db.insert(workOrderLines).values({ ...row, version: stamp }),
      touchOrder(db, workspaceId, order, now, stamp),
    ],
  };
}

const scopedLine = (workspaceId: string, id: string) =>
  and(eq(workOrderLines.id, id), eq(workOrderLines.workspaceId, workspaceId));

export async function updateLineWrites(
  db: Db,
  workspaceId: string,
  workOrderId: string,
  lineId: string,
  patch: WorkOrderLinePatch,
  now: number,
): Promise<{ row: LineRow; writes: Writes }> {
  const order = await workOrderIn(db, workspaceId, workOrderId);
  const line = await lineIn(db, workspaceId, workOrderId, lineId);
  refuseClosed(order);
  await checkLineReferences(db, workspaceId, { userId: patch.userId });
  const set: Partial<LineRow> = {};
  if (patch.description !== undefined) set.description = patch.description || null;
  if (patch.quantity !== undefined) set.quantity = patch.quantity;
  if (patch.unitCostCents !== undefined) set.unitCostCents = patch.unitCostCents;
  if (patch.userId !== undefined) set.userId = patch.userId;
  return {
    row: { ...line, ...set },
    writes: (stamp) => [
      db
        .update(workOrderLines)
        .set({ ...set, version: stamp })
        .where(scopedLine(workspaceId, lineId)),
      touchOrder(db, workspaceId, order, now, stamp),
    ],
  };
}

export async function deleteLineWrites(
  db: Db,
  workspaceId: string,
  workOrderId: string,
  lineId: string,
  now: number,
): Promise<Writes> {
  const order = await workOrderIn(db, workspaceId, workOrderId);
  await lineIn(db, workspaceId, workOrderId, lineId);
  refuseClosed(order);
  return (stamp) => [
    db.update(workOrderLines).set({ deleted: true, version: stamp }).where(scopedLine(workspaceId, lineId)),
    touchOrder(db, workspaceId, order, now, stamp),
  ];
}

// ---------------------------------------------------------------- parts and vendors

export function createPartWrites(
  db: Db,
  workspaceId: string,
  input: z.output<typeof partBody>,
  { id, now }: { id: string; now: number },
): { row: PartRow; writes: Writes } {
  const row: PartRow = {
    id,
    workspaceId,
    ...partTable.given(input),
    quantityOnHand: input.quantityOnHand,
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return { row, writes: (stamp) => [db.insert(parts).values({ ...row, version: stamp })] };
}

export async function updatePartWrites(
  db: Db,
  workspaceId: string,
  id: string,
  patch: PartPatch,
): Promise<{ row: PartRow; writes: Writes }> {
  const part = await partIn(db, workspaceId, id);
  const set: Partial<PartRow> = partTable.named(patch);
  if (patch.quantityOnHand !== undefined) set.quantityOnHand = patch.quantityOnHand;
  return {
    row: { ...part, ...set },
    writes: (stamp) => [
      db
        .update(parts)
        .set({ ...set, version: stamp })
        .where(and(eq(parts.id, id), eq(parts.workspaceId, workspaceId))),
    ],
  };
}

/** A part deleted (owners and admins): lines that name it keep their figures; completing takes no stock of it. */
export async function deletePartWrites(db: Db, workspaceId: string, id: string): Promise<Writes> {
  await partIn(db, workspaceId, id);
  return (stamp) => [
    db
      .update(parts)
      .set({ deleted: true, version: stamp })
      .where(and(eq(parts.id, id), eq(parts.workspaceId, workspaceId))),
  ];
}

export function createVendorWrites(
  db: Db,
  workspaceId: string,
  input: z.output<typeof vendorBody>,
  { id, now }: { id: string; now: number },
): { row: VendorRow; writes: Writes } {
  const row: VendorRow = {
    id,
    workspaceId,
    ...vendorTable.given(input),
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return { row, writes: (stamp) => [db.insert(vendors).values({ ...row, version: stamp })] };
}

export async function updateVendorWrites(
  db: Db,
  workspaceId: string,
  id: string,
  patch: VendorPatch,
): Promise<{ row: VendorRow; writes: Writes }> {
  const vendor = await vendorIn(db, workspaceId, id);
  const set: Partial<VendorRow> = vendorTable.named(patch);
  return {
    row: { ...vendor, ...set },
    writes: (stamp) => [
      db
        .update(vendors)
        .set({ ...set, version: stamp })
        .where(and(eq(vendors.id, id), eq(vendors.workspaceId, workspaceId))),
    ],
  };
}

/** A vendor deleted (owners and admins): its work orders keep naming it, shown as a removed vendor. */
export async function deleteVendorWrites(db: Db, workspaceId: string, id: string): Promise<Writes> {
  await vendorIn(db, workspaceId, id);
  return (stamp) => [
    db
      .update(vendors)
      .set({ deleted: true, version: stamp })
      .where(and(eq(vendors.id, id), eq(vendors.workspaceId, workspaceId))),
  ];
}

export { conflict };
