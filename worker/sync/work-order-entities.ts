import { and, eq, gt, gte, inArray, notInArray, or } from "drizzle-orm";
import {
  encodePart,
  encodeVendor,
  encodeWorkOrder,
  encodeWorkOrderLine,
  partKey,
  SYNCED_CLOSED_WORK_ORDER_DAYS,
  vendorKey,
  workOrderKey,
  workOrderLineKey,
  type WorkOrderStatus,
} from "../../shared/maintenance/work-orders";
import type { Db } from "../../db/client";
import { parts, vendors, workOrderLines, workOrders } from "../../db/schema";
import type { Add, Rows } from "./add-rows";

/**
 * Work orders, their lines, parts and vendors in a pull (issue 55, docs/decisions/0087). A full
 * answer carries every live part and vendor, every work order still to do, the ones completed or
 * cancelled in the last 90 days, and those orders' lines; older ones are read over REST. An
 * incremental answer carries every change since the cookie (tombstones included).
 */
const CLOSED = ["completed", "cancelled"];
const DAY_MS = 86_400_000;

export function workOrderChangeQueries(db: Db, workspaceId: string, since: number, live: boolean, now = Date.now()) {
  const changed = <T extends typeof workOrders | typeof workOrderLines | typeof parts | typeof vendors>(t: T) =>
    live
      ? and(eq(t.workspaceId, workspaceId), gt(t.version, since), eq(t.deleted, false))
      : and(eq(t.workspaceId, workspaceId), gt(t.version, since));
  // in-list: CLOSED, the two constant closed statuses
  const recent = or(
    notInArray(workOrders.status, CLOSED),
    gte(workOrders.updatedAt, now - SYNCED_CLOSED_WORK_ORDER_DAYS * DAY_MS),
  );
  const carriedOrders = db
    .select({ id: workOrders.id })
    .from(workOrders)
    .where(and(changed(workOrders), recent));
  return [
    db
      .select()
      .from(workOrders)
      .where(live ? and(changed(workOrders), recent) : changed(workOrders)),
    db
      .select()
      .from(workOrderLines)
      // in-list: carriedOrders is a subquery (the orders this answer carries), no bound values per row
      .where(
        live
          ? and(changed(workOrderLines), inArray(workOrderLines.workOrderId, carriedOrders))
          : changed(workOrderLines),
      ),
    db.select().from(parts).where(changed(parts)),
    db.select().from(vendors).where(changed(vendors)),
  ] as const;
}

export function addWorkOrders(
  changes: {
    workOrderRows: Rows<typeof workOrders>;
    workOrderLineRows: Rows<typeof workOrderLines>;
    partRows: Rows<typeof parts>;
    vendorRows: Rows<typeof vendors>;
  },
  add: Add,
) {
  add(
    changes.workOrderRows,
    (r) => workOrderKey(r.id),
    (r) => encodeWorkOrder({ ...r, status: r.status as WorkOrderStatus }),
  );
  add(
    changes.workOrderLineRows,
    (r) => workOrderLineKey(r.workOrderId, r.id),
    (r) => encodeWorkOrderLine(r),
  );
  add(changes.partRows, (r) => partKey(r.id), encodePart);
  add(changes.vendorRows, (r) => vendorKey(r.id), encodeVendor);
}
