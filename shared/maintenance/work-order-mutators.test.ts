import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { serviceScheduleTable } from "./service-schedule-fields";
import { decodeIssue, encodeIssue, issueKey } from "./issues";
import { decodeSchedule, encodeSchedule, serviceEntryKey, serviceScheduleKey } from "../sync/maintenance-sync";
import { decodeSyncedValue } from "../sync/synced-value";
import { telemetryKey } from "../fleet/telemetry";
import { vehicleEventKey, type VehicleEventWire } from "../fleet/vehicle-event";
import { METRES_PER_MILE } from "../units/units";
import { packId } from "../sync/wire";
import { workOrderMutators as m } from "./work-order-mutators";
import {
  decodePart,
  decodeWorkOrder,
  partKey,
  workOrderKey,
  workOrderLinesPrefix,
  type PartWire,
  type WorkOrderWire,
} from "./work-orders";

const vehicleId = crypto.randomUUID();
const [orderId, issueId, scheduleId, partId, entryId] = Array.from({ length: 5 }, () => crypto.randomUUID()) as [
  string,
  string,
  string,
  string,
  string,
];
const DAY = 86_400_000;

function shop() {
  return memoryTransaction({
    [telemetryKey(vehicleId)]: { s: "off", st: 0, v: 0, o: 30_000 * METRES_PER_MILE, la: 0, lo: 0, t: 0 },
    [issueKey(issueId)]: encodeIssue({
      number: 3,
      vehicleId,
      title: "Brakes",
      description: null,
      priority: "high",
      status: "open",
      reportedByUserId: null,
      assigneeUserId: null,
      dueDate: null,
      photoIds: [],
      sourceInspectionId: null,
      sourceAlertId: null,
      resolvedByServiceEntryId: null,
      createdAt: Date.now(),
      updatedAt: Date.now(),
      descriptionOnServer: false,
    } as never),
    [serviceScheduleKey(scheduleId)]: encodeSchedule({
      vehicleId,
      ...serviceScheduleTable.given({ name: "Oil", everyMiles: 5000 }),
      lastDoneAt: Date.now() - 200 * DAY,
      lastDoneOdometerMiles: 24_000,
      lastDoneEngineHours: null,
      announced: "overdue",
    }),
    [partKey(partId)]: { n: "Brake pads", u: 4_500, q: 5, r: 2 } satisfies PartWire,
  });
}

const orderOf = (map: Map<string, unknown>) =>
  decodeWorkOrder(packId(orderId), map.get(workOrderKey(orderId)) as WorkOrderWire);

describe("work orders in the browser's store", () => {
  it("a mechanic adds lines and completes offline: the issue resolves, the schedule restarts, the entry shows, stock goes down", async () => {
    const { map, tx } = shop();
    await m.createWorkOrder(tx, { id: orderId, vehicleId, issueIds: [issueId], scheduleIds: [scheduleId] });
    expect(orderOf(map)).toMatchObject({ number: 0, status: "open", issueIds: [issueId] });
    await m.addWorkOrderLine(tx, {
      id: crypto.randomUUID(),
      workOrderId: orderId,
      kind: "labor",
      quantity: 1.5,
      unitCostCents: 9_550,
    });
    await m.addWorkOrderLine(tx, {
      id: crypto.randomUUID(),
      workOrderId: orderId,
      kind: "part",
      quantity: 2,
      unitCostCents: 4_500,
      partId,
    });
    await m.updateWorkOrder(tx, { id: orderId, taxCents: 1_000 });
    await m.completeWorkOrder(tx, { id: orderId, serviceEntryId: entryId, signedName: "Sam" });

    expect(orderOf(map)).toMatchObject({
      status: "completed",
      serviceEntryId: entryId,
      odometerMiles: 30_000,
      signedName: "Sam",
    });
    expect(decodeIssue(packId(issueId), map.get(issueKey(issueId)) as never).status).toBe("resolved");
    expect(decodeSchedule(scheduleId, map.get(serviceScheduleKey(scheduleId)) as never)).toMatchObject({
      lastDoneOdometerMiles: 30_000,
      announced: null,
    });
    expect(decodeSyncedValue(serviceEntryKey(entryId), map.get(serviceEntryKey(entryId)))).toMatchObject({
      costCents: 24_325,
      resolvesIssueIds: [issueId],
    });
    expect(decodePart(packId(partId), map.get(partKey(partId)) as PartWire).quantityOnHand).toBe(3);

    // completed: a line added from another tab's queue changes nothing
    await m.addWorkOrderLine(tx, {
      id: crypto.randomUUID(),
      workOrderId: orderId,
      kind: "labor",
      quantity: 1,
      unitCostCents: 1,
    });
    const lines = [...map.keys()].filter((k) => k.startsWith(workOrderLinesPrefix(orderId)));
    expect(lines).toHaveLength(2);
  });

  it("completed offline with a past time: the odometer then, this device's odometer less the trips it synced since", async () => {
    const { map, tx } = shop();
    const now = Date.now();
    // 90 miles driven since yesterday's repair
    const trip = { a: now - 20 * 3_600_000, z: now - 19 * 3_600_000, d: Math.round(90 * METRES_PER_MILE) };
    map.set(vehicleEventKey(vehicleId, crypto.randomUUID()), { k: "TRANSIT", ...trip } satisfies VehicleEventWire);
    await m.createWorkOrder(tx, { id: orderId, vehicleId });
    const completedAt = new Date(now - DAY).toISOString();
    await m.completeWorkOrder(tx, { id: orderId, serviceEntryId: entryId, completedAt });
    expect(orderOf(map)).toMatchObject({ status: "completed", odometerMiles: 29_910 });
  });

  it("reopening brings back the entry and the stock at once; completing twice does nothing more", async () => {
    const { map, tx } = shop();
    await m.createWorkOrder(tx, { id: orderId, vehicleId });
    await m.addWorkOrderLine(tx, {
      id: crypto.randomUUID(),
      workOrderId: orderId,
      kind: "part",
      quantity: 2,
      unitCostCents: 4_500,
      partId,
    });
    await m.completeWorkOrder(tx, { id: orderId, serviceEntryId: entryId });
    await m.completeWorkOrder(tx, { id: orderId, serviceEntryId: crypto.randomUUID() });
    expect(decodePart(packId(partId), map.get(partKey(partId)) as PartWire).quantityOnHand).toBe(3);
    await m.reopenWorkOrder(tx, { id: orderId });
    expect(orderOf(map)).toMatchObject({ status: "in_progress", serviceEntryId: null, completedAt: null });
    expect(map.has(serviceEntryKey(entryId))).toBe(false);
    expect(decodePart(packId(partId), map.get(partKey(partId)) as PartWire).quantityOnHand).toBe(5);
  });

  it("deleting an order takes its lines with it", async () => {
    const { map, tx } = shop();
    await m.createWorkOrder(tx, { id: orderId, vehicleId });
    await m.addWorkOrderLine(tx, {
      id: crypto.randomUUID(),
      workOrderId: orderId,
      kind: "labor",
      quantity: 1,
      unitCostCents: 100,
    });
    await m.deleteWorkOrder(tx, { id: orderId });
    expect([...map.keys()].filter((k) => k.startsWith("wo"))).toEqual([]);
  });
});
