import { useMemo } from "react";
import type { Vehicle } from "../../shared/fleet/vehicle";
import {
  inAddedOrder,
  isActiveWorkOrder,
  needsReorder,
  workOrderLinesPrefix,
  workOrderTotals,
  WORK_ORDER_LINE_PREFIX,
  type AddWorkOrderLineArgs,
  type CompleteWorkOrderArgs,
  type CreatePartArgs,
  type CreateVendorArgs,
  type CreateWorkOrderArgs,
  type SyncedPart,
  type SyncedVendor,
  type SyncedWorkOrder,
  type SyncedWorkOrderLine,
  type UpdatePartArgs,
  type UpdateVendorArgs,
  type UpdateWorkOrderArgs,
  type WorkOrderTotals,
} from "../../shared/maintenance/work-orders";
import type { workOrderMutators } from "../../shared/maintenance/work-order-mutators";
import { useSync } from "../sync/sync-provider";
import { useTypesValue } from "./maintenance";

/**
 * Work orders, their lines, parts and vendors from the synced store (docs/decisions/0087): the Work
 * orders pages, a vehicle's tab, the Parts page and My actions read these, so they render offline.
 * Totals come from shared/costs/work-order-costs.ts, as the server's do.
 */
export type WorkOrderRow = SyncedWorkOrder & WorkOrderTotals & { lineCount: number };

export interface WorkOrderFilter {
  status: string;
  vehicleId: string;
  assigneeUserId: string;
  vendorId: string;
}

const matches = (o: SyncedWorkOrder, f: Partial<WorkOrderFilter>) =>
  (!f.status || (f.status === "active" ? isActiveWorkOrder(o.status) : f.status === "all" || o.status === f.status)) &&
  (!f.vehicleId || o.vehicleId === f.vehicleId) &&
  (!f.assigneeUserId || o.assigneeUserId === f.assigneeUserId) &&
  (!f.vendorId || o.vendorId === f.vendorId);

/** Orders matching the filter (vehicles still in the fleet), not-yet-numbered ones first, then newest number first. */
export function useWorkOrders(filter: Partial<WorkOrderFilter>): WorkOrderRow[] {
  const key = JSON.stringify(filter);
  return useTypesValue(["work-order", "work-order-line", "vehicle"], `work-orders|${key}`, (s) => {
    const lines = new Map<string, SyncedWorkOrderLine[]>();
    for (const l of s.list<SyncedWorkOrderLine>("work-order-line"))
      lines.set(l.workOrderId, [...(lines.get(l.workOrderId) ?? []), l]);
    return s
      .list<SyncedWorkOrder>("work-order")
      .filter((o) => matches(o, filter) && s.get<Vehicle>("vehicle", o.vehicleId))
      .map((o) => {
        const own = lines.get(o.id) ?? [];
        return { ...o, ...workOrderTotals(own, o.taxCents), lineCount: own.length };
      })
      .sort((a, b) => (a.number || Infinity) - (b.number || Infinity))
      .reverse();
  });
}

/** The first order not yet done (neither completed nor cancelled) gathering one of these issues or schedules. */
export function useActiveOrderFor({
  issueIds = [],
  scheduleIds = [],
}: {
  issueIds?: string[];
  scheduleIds?: string[];
}): SyncedWorkOrder | undefined {
  const key = `${issueIds.join(",")}|${scheduleIds.join(",")}`;
  return useTypesValue(["work-order"], `work-order-for|${key}`, (s) =>
    s
      .list<SyncedWorkOrder>("work-order")
      .find(
        (o) =>
          isActiveWorkOrder(o.status) &&
          (o.issueIds.some((id) => issueIds.includes(id)) || o.scheduleIds.some((id) => scheduleIds.includes(id))),
      ),
  );
}

export function useWorkOrder(id: string): { order: SyncedWorkOrder | undefined; lines: SyncedWorkOrderLine[] } {
  return useTypesValue(["work-order", "work-order-line"], `work-order|${id}`, (s) => {
    const prefix = workOrderLinesPrefix(id).slice(WORK_ORDER_LINE_PREFIX.length);
    return {
      order: s.get<SyncedWorkOrder>("work-order", id),
      lines: inAddedOrder(s.list<SyncedWorkOrderLine>("work-order-line", prefix)),
    };
  });
}

const compareNames = new Intl.Collator(undefined, { numeric: true }).compare;

export function useParts(): (SyncedPart & { low: boolean })[] {
  return useTypesValue(["part"], "parts", (s) =>
    s
      .list<SyncedPart>("part")
      .map((p) => ({ ...p, low: needsReorder(p) }))
      .sort((a, b) => compareNames(a.name, b.name)),
  );
}

export function useVendors(): SyncedVendor[] {
  return useTypesValue(["vendor"], "vendors", (s) =>
    s.list<SyncedVendor>("vendor").sort((a, b) => compareNames(a.name, b.name)),
  );
}

/** Every work order, part and vendor change, through sync mutators: optimistic, offline too. */
export function useWorkOrderMutations() {
  const sync = useSync();
  return useMemo(() => {
    const run = async (name: keyof typeof workOrderMutators, args: unknown) => {
      if (!sync) throw new Error("The local store is not ready");
      await sync.client.mutate(name, args);
    };
    return {
      createWorkOrder: (args: CreateWorkOrderArgs) => run("createWorkOrder", args),
      updateWorkOrder: (args: UpdateWorkOrderArgs) => run("updateWorkOrder", args),
      deleteWorkOrder: (id: string) => run("deleteWorkOrder", { id }),
      addLine: (args: AddWorkOrderLineArgs) => run("addWorkOrderLine", args),
      deleteLine: (workOrderId: string, id: string) => run("deleteWorkOrderLine", { workOrderId, id }),
      complete: (args: CompleteWorkOrderArgs) => run("completeWorkOrder", args),
      reopen: (id: string) => run("reopenWorkOrder", { id }),
      createPart: (args: CreatePartArgs) => run("createPart", args),
      updatePart: (args: UpdatePartArgs) => run("updatePart", args),
      deletePart: (id: string) => run("deletePart", { id }),
      createVendor: (args: CreateVendorArgs) => run("createVendor", args),
      updateVendor: (args: UpdateVendorArgs) => run("updateVendor", args),
      deleteVendor: (id: string) => run("deleteVendor", { id }),
    };
  }, [sync]);
}
