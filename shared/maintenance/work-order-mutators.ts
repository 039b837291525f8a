import type { ReadTransaction, WriteTransaction } from "replicache";
import { ISSUE_STATUSES, issueKey, type IssueWire } from "./issues";
import { doneAt, restartedBasis, type VehicleReading } from "./service";
import {
  addWorkOrderLineArgs,
  completeWorkOrderArgs,
  createPartArgs,
  createVendorArgs,
  createWorkOrderArgs,
  decodePart,
  decodeVendor,
  decodeWorkOrder,
  decodeWorkOrderLine,
  deleteWorkOrderLineArgs,
  encodePart,
  encodeVendor,
  encodeWorkOrder,
  encodeWorkOrderLine,
  inAddedOrder,
  isActiveWorkOrder,
  partKey,
  partQuantities,
  updatePartArgs,
  updateVendorArgs,
  updateWorkOrderArgs,
  updateWorkOrderLineArgs,
  vendorKey,
  workOrderIdArgs,
  workOrderKey,
  workOrderLineKey,
  workOrderLinesPrefix,
  workOrderTotals,
  WORK_ORDER_LINE_PREFIX,
  type AddWorkOrderLineArgs,
  type CompleteWorkOrderArgs,
  type CreatePartArgs,
  type CreateVendorArgs,
  type CreateWorkOrderArgs,
  type DeleteWorkOrderLineArgs,
  type PartWire,
  type SyncedWorkOrder,
  type SyncedWorkOrderLine,
  type UpdatePartArgs,
  type UpdateVendorArgs,
  type UpdateWorkOrderArgs,
  type UpdateWorkOrderLineArgs,
  type VendorWire,
  type WorkOrderIdArgs,
  type WorkOrderLineWire,
  type WorkOrderWire,
} from "./work-orders";
import { workOrderTable } from "./work-order-fields";
import { partTable } from "./part-fields";
import { vendorTable } from "./vendor-fields";
import { serviceEntryTable } from "./service-entry-fields";
import {
  decodeSchedule,
  encodeSchedule,
  encodeServiceEntry,
  serviceEntryKey,
  serviceScheduleKey,
  type ScheduleWire,
} from "../sync/maintenance-sync";
import { telemetryKey, type TelemetryWire } from "../fleet/telemetry";
import { odometerIn } from "../costs/fuel-mutators";
import { metresToMiles } from "../units/units";
import { packId } from "../sync/wire";

/**
 * Work orders, lines, parts and vendors in the browser (issue 55, docs/decisions/0087): optimistic,
 * offline too, so a mechanic can add lines and complete an order with no signal. The Worker applies
 * each through the REST routes' own checks and writes (worker/sync/work-order-mutators.ts); its copy
 * replaces this one with the next pull, and a refused one goes away. A completion here shows its
 * effects at once (issues resolved, schedules restarted, the service entry, the stock taken); the
 * server's completion is the one that counts, and its reopening restores exactly what it did.
 */

async function orderIn(tx: ReadTransaction, id: string): Promise<SyncedWorkOrder | null> {
  const wire = (await tx.get(workOrderKey(id))) as WorkOrderWire | undefined;
  return wire ? decodeWorkOrder(packId(id), wire) : null;
}

async function linesIn(tx: ReadTransaction, workOrderId: string): Promise<SyncedWorkOrderLine[]> {
  const prefix = workOrderLinesPrefix(workOrderId);
  const entries = await tx.scan({ prefix }).entries().toArray();
  return inAddedOrder(
    entries.map(([key, value]) =>
      decodeWorkOrderLine(key.slice(WORK_ORDER_LINE_PREFIX.length), value as WorkOrderLineWire),
    ),
  );
}

const putOrder = (tx: WriteTransaction, o: SyncedWorkOrder) => {
  const { id, ...fields } = o;
  return tx.set(workOrderKey(id), encodeWorkOrder(fields));
};

/** The vehicle's odometer as this device last synced it; engine hours are the server's alone. */
async function readingIn(tx: ReadTransaction, vehicleId: string): Promise<VehicleReading> {
  const t = (await tx.get(telemetryKey(vehicleId))) as TelemetryWire | undefined;
  return { odometerMiles: t?.o === undefined ? null : Math.round(metresToMiles(t.o) * 10) / 10, engineHours: null };
}

/** Moves each part's quantity on hand by `sign` × what the lines take. */
async function moveStock(tx: WriteTransaction, lines: SyncedWorkOrderLine[], sign: 1 | -1) {
  for (const [partId, quantity] of partQuantities(lines)) {
    const wire = (await tx.get(partKey(partId))) as PartWire | undefined;
    if (wire) await tx.set(partKey(partId), { ...wire, q: wire.q + sign * quantity });
  }
}

const RESOLVED = ISSUE_STATUSES.indexOf("resolved");

/** What completing shows at once: the issues resolved and the schedules restarted, as the server will. */
async function completionEffects(tx: WriteTransaction, order: SyncedWorkOrder, at: number, reading: VehicleReading) {
  for (const issueId of order.issueIds) {
    const wire = (await tx.get(issueKey(issueId))) as IssueWire | undefined;
    if (wire && (wire.s ?? 0) < RESOLVED) await tx.set(issueKey(issueId), { ...wire, s: RESOLVED });
  }
  const day = new Date(at).toISOString().slice(0, 10);
  const done = { day, at: doneAt(day, at), ...reading };
  for (const scheduleId of order.scheduleIds) {
    const wire = (await tx.get(serviceScheduleKey(scheduleId))) as ScheduleWire | undefined;
    if (!wire) continue;
    const schedule = decodeSchedule(scheduleId, wire);
    const basis = restartedBasis(schedule, done, reading);
    if (basis) await tx.set(serviceScheduleKey(scheduleId), encodeSchedule({ ...schedule, ...basis, announced: null }));
  }
}

export const workOrderMutators = {
  async createWorkOrder(tx: WriteTransaction, input: CreateWorkOrderArgs) {
    const { id, createdAt, ...o } = createWorkOrderArgs.parse(input);
    if (await tx.has(workOrderKey(id))) return;
    // number 0: not numbered yet (the server numbers it in its write; the page shows "New")
    await putOrder(tx, {
      id,
      number: 0,
      vehicleId: o.vehicleId,
      status: "open",
      assigneeUserId: o.assigneeUserId ?? null,
      vendorId: o.vendorId ?? null,
      ...workOrderTable.given(o),
      issueIds: [...new Set(o.issueIds)],
      scheduleIds: [...new Set(o.scheduleIds)],
      tasks: o.tasks,
      taxCents: 0,
      odometerMiles: null,
      engineHours: null,
      completedAt: null,
      serviceEntryId: null,
      signedName: null,
      photoIds: [],
      signaturePhotoId: null,
      createdAt: createdAt ?? Date.now(),
    });
  },

  async updateWorkOrder(tx: WriteTransaction, input: UpdateWorkOrderArgs) {
    const { id, ...patch } = updateWorkOrderArgs.parse(input);
    const order = await orderIn(tx, id);
    if (!order || order.status === "completed" || patch.status === "completed") return;
    const next = { ...order, ...workOrderTable.patched(order, patch) };
    if (patch.status !== undefined) next.status = patch.status;
    if (patch.assigneeUserId !== undefined) next.assigneeUserId = patch.assigneeUserId;
    if (patch.vendorId !== undefined) next.vendorId = patch.vendorId;
    if (patch.assigneeUserId) next.vendorId = patch.vendorId ?? null;
    if (patch.vendorId) next.assigneeUserId = patch.assigneeUserId ?? null;
    if (patch.tasks !== undefined) next.tasks = patch.tasks;
    if (patch.taxCents !== undefined) next.taxCents = patch.taxCents;
    await putOrder(tx, next);
  },

  async deleteWorkOrder(tx: WriteTransaction, input: WorkOrderIdArgs) {
    const { id } = workOrderIdArgs.parse(input);
    for (const line of await linesIn(tx, id)) await tx.del(workOrderLineKey(id, line.id));
    await tx.del(workOrderKey(id));
  },

  async addWorkOrderLine(tx: WriteTransaction, input: AddWorkOrderLineArgs) {
    const { id, workOrderId, createdAt, ...l } = addWorkOrderLineArgs.parse(input);
    const order = await orderIn(tx, workOrderId);
    if (!order || order.status === "completed" || (await tx.has(workOrderLineKey(workOrderId, id)))) return;
    await tx.set(
      workOrderLineKey(workOrderId, id),
      encodeWorkOrderLine({
        kind: l.kind,
        description: l.description || null,
        quantity: l.quantity,
        unitCostCents: l.unitCostCents,
        partId: l.partId ?? null,
        userId: l.userId ?? null,
        createdAt: createdAt ?? Date.now(),
      }),
    );
  },

  async updateWorkOrderLine(tx: WriteTransaction, input: UpdateWorkOrderLineArgs) {
    const { id, workOrderId, ...patch } = updateWorkOrderLineArgs.parse(input);
    const key = workOrderLineKey(workOrderId, id);
    const wire = (await tx.get(key)) as WorkOrderLineWire | undefined;
    const order = await orderIn(tx, workOrderId);
    if (!wire || !order || order.status === "completed") return;
    const line = decodeWorkOrderLine(`${packId(workOrderId)}/${packId(id)}`, wire);
    if (patch.description !== undefined) line.description = patch.description || null;
    if (patch.quantity !== undefined) line.quantity = patch.quantity;
    if (patch.unitCostCents !== undefined) line.unitCostCents = patch.unitCostCents;
    if (patch.userId !== undefined) line.userId = patch.userId;
    await tx.set(key, encodeWorkOrderLine(line));
  },

  async deleteWorkOrderLine(tx: WriteTransaction, input: DeleteWorkOrderLineArgs) {
    const { id, workOrderId } = deleteWorkOrderLineArgs.parse(input);
    const order = await orderIn(tx, workOrderId);
    if (order?.status === "completed") return;
    await tx.del(workOrderLineKey(workOrderId, id));
  },

  async completeWorkOrder(tx: WriteTransaction, input: CompleteWorkOrderArgs) {
    const args = completeWorkOrderArgs.parse(input);
    const order = await orderIn(tx, args.id);
    if (!order || !isActiveWorkOrder(order.status)) return;
    const lines = await linesIn(tx, order.id);
    const at = args.completedAt ? Date.parse(args.completedAt) : Date.now();
    const vehicle = await readingIn(tx, order.vehicleId);
    // dated in the past: the odometer then, as the server works it back (worker/maintenance/work-order-completion.ts)
    const odometerThen = args.completedAt ? await odometerIn(tx, order.vehicleId, at) : vehicle.odometerMiles;
    const reading = {
      odometerMiles: args.odometerMiles ?? odometerThen,
      engineHours: args.engineHours ?? vehicle.engineHours,
    };
    await completionEffects(tx, order, at, reading);
    await moveStock(tx, lines, -1);
    const totals = workOrderTotals(lines, order.taxCents);
    await tx.set(
      serviceEntryKey(args.serviceEntryId),
      encodeServiceEntry({
        vehicleId: order.vehicleId,
        date: new Date(at).toISOString().slice(0, 10),
        // the entry table's fields a completion gives; any other is none (docs/decisions/0104)
        ...serviceEntryTable.given({
          ...reading,
          description: `Work order #${order.number || "new"}${order.description ? `: ${order.description}` : ""}`,
          costCents: totals.totalCents,
        }),
        photoIds: args.photoIds,
        scheduleIds: order.scheduleIds,
        resolvesIssueIds: order.issueIds,
        createdAt: at,
      }),
    );
    await putOrder(tx, {
      ...order,
      ...reading,
      status: "completed",
      completedAt: at,
      serviceEntryId: args.serviceEntryId,
      signedName: args.signedName || null,
      photoIds: args.photoIds,
      signaturePhotoId: args.signaturePhotoId ?? null,
    });
  },

  /** The entry and the stock come back at once; the issues' and schedules' former state comes with the server's answer. */
  async reopenWorkOrder(tx: WriteTransaction, input: WorkOrderIdArgs) {
    const order = await orderIn(tx, workOrderIdArgs.parse(input).id);
    if (!order || order.status !== "completed") return;
    await moveStock(tx, await linesIn(tx, order.id), 1);
    if (order.serviceEntryId) await tx.del(serviceEntryKey(order.serviceEntryId));
    await putOrder(tx, {
      ...order,
      status: "in_progress",
      completedAt: null,
      serviceEntryId: null,
      signedName: null,
      signaturePhotoId: null,
    });
  },

  async createPart(tx: WriteTransaction, input: CreatePartArgs) {
    const { id, ...p } = createPartArgs.parse(input);
    if (await tx.has(partKey(id))) return;
    await tx.set(partKey(id), encodePart({ ...partTable.given(p), quantityOnHand: p.quantityOnHand }));
  },

  async updatePart(tx: WriteTransaction, input: UpdatePartArgs) {
    const { id, ...patch } = updatePartArgs.parse(input);
    const wire = (await tx.get(partKey(id))) as PartWire | undefined;
    if (!wire) return;
    const { id: _id, ...part } = decodePart(packId(id), wire);
    const next = { ...part, ...partTable.patched(part, patch) };
    if (patch.quantityOnHand !== undefined) next.quantityOnHand = patch.quantityOnHand;
    await tx.set(partKey(id), encodePart(next));
  },

  async deletePart(tx: WriteTransaction, input: WorkOrderIdArgs) {
    await tx.del(partKey(workOrderIdArgs.parse(input).id));
  },

  async createVendor(tx: WriteTransaction, input: CreateVendorArgs) {
    const { id, ...v } = createVendorArgs.parse(input);
    if (await tx.has(vendorKey(id))) return;
    await tx.set(vendorKey(id), encodeVendor(vendorTable.given(v)));
  },

  async updateVendor(tx: WriteTransaction, input: UpdateVendorArgs) {
    const { id, ...patch } = updateVendorArgs.parse(input);
    const wire = (await tx.get(vendorKey(id))) as VendorWire | undefined;
    if (!wire) return;
    const { id: _id, ...vendor } = decodeVendor(packId(id), wire);
    await tx.set(vendorKey(id), encodeVendor(vendorTable.patched(vendor, patch)));
  },

  async deleteVendor(tx: WriteTransaction, input: WorkOrderIdArgs) {
    await tx.del(vendorKey(workOrderIdArgs.parse(input).id));
  },
};
