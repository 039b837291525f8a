import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { WORK_ORDER_FIELD_TABLE, type WorkOrderTableKey, workOrderTable } from "./work-order-fields";
import { workOrderMutators as m } from "./work-order-mutators";
import {
  createWorkOrderArgs,
  createWorkOrderBody,
  decodeWorkOrder,
  encodeWorkOrder,
  updateWorkOrderArgs,
  workOrderKey,
  workOrderPatchBody,
  type WorkOrderWire,
} from "./work-orders";
import { packId } from "../sync/wire";

/**
 * The work order table (docs/decisions/0094) reaches every place an order's plain fields are
 * listed: the body, the patch and the mutators' arguments check each field; a new order keeps it,
 * a patch changes, keeps or clears it; the synced value carries it under its own key, left out
 * when empty, and reads the values a tab synced before the table; the form lists it where flagged.
 */
const example = (k: WorkOrderTableKey) => WORK_ORDER_FIELD_TABLE[k].example;
const examples = Object.fromEntries(workOrderTable.keys.map((k) => [k, example(k)]));
const nulls = Object.fromEntries(workOrderTable.keys.map((k) => [k, null]));
const base = { vehicleId: "v1" };

/** Replicache's transaction over a Map: what the order's mutators read and write. */
function store() {
  const { map, tx } = memoryTransaction();
  const order = (id: string) => decodeWorkOrder(packId(id), map.get(workOrderKey(id)) as WorkOrderWire);
  return { tx, order };
}

describe("the work order table", () => {
  it("is checked by the body, the patch and the sync mutators' arguments, each keeping its value", () => {
    expect(createWorkOrderBody.parse({ ...base, ...examples })).toMatchObject(examples);
    expect(workOrderPatchBody.parse(examples)).toEqual(examples);
    expect(createWorkOrderArgs.parse({ ...base, id: "w", ...examples })).toMatchObject(examples);
    expect(updateWorkOrderArgs.parse({ id: "w", ...examples })).toMatchObject(examples);
    for (const k of workOrderTable.keys) expect(workOrderPatchBody.safeParse({ [k]: {} }).success, k).toBe(false);
    // left out: kept by a patch; null or (for a text) empty: cleared
    expect(workOrderPatchBody.parse({})).toEqual({});
    expect(workOrderPatchBody.parse(nulls)).toEqual(nulls);
    expect(workOrderPatchBody.parse({ description: "  " })).toEqual({ description: null });
  });

  it("keeps what the mutators give, changes only what a patch names, and clears with null", async () => {
    const { tx, order } = store();
    await m.createWorkOrder(tx, { ...base, id: "w", ...examples });
    expect(order("w")).toMatchObject(examples);
    await m.updateWorkOrder(tx, { id: "w", status: "on_hold" });
    expect(order("w")).toMatchObject({ ...examples, status: "on_hold" });
    await m.updateWorkOrder(tx, { id: "w", ...nulls });
    expect(order("w")).toMatchObject(nulls);
    await m.createWorkOrder(tx, { ...base, id: "plain" });
    expect(order("plain")).toMatchObject(nulls);
  });

  it("travels in the synced value under its own short key, left out when empty", async () => {
    const wires = workOrderTable.keys.map((k) => WORK_ORDER_FIELD_TABLE[k].wire);
    const fixed = ["v", "n", "c", "s", "a", "vd", "i", "sc", "t", "tx", "om", "oh", "at", "e", "sn", "ph", "sg"];
    expect(new Set([...wires, ...fixed]).size).toBe(wires.length + fixed.length);
    const { tx, order } = store();
    await m.createWorkOrder(tx, { ...base, id: "w" });
    const { id: _id, ...plain } = order("w");
    expect(Object.keys(encodeWorkOrder(plain)).sort()).toEqual(["c", "n", "v"]);
    const full = encodeWorkOrder({ ...plain, ...examples });
    expect(full).toMatchObject(
      Object.fromEntries(workOrderTable.keys.map((k) => [WORK_ORDER_FIELD_TABLE[k].wire, example(k)])),
    );
    expect(decodeWorkOrder(packId("w"), full)).toMatchObject(examples);
  });

  it("reads and writes the synced value as a tab from before the table does (same keys)", () => {
    const yesterdays: WorkOrderWire = { v: packId("v1"), n: 7, c: 1_800_000_000, dd: "2031-05-20", x: "Brakes" };
    const decoded = decodeWorkOrder(packId("w"), yesterdays);
    expect(decoded).toMatchObject({ dueDate: "2031-05-20", description: "Brakes", number: 7, vehicleId: "v1" });
    const { id: _id, ...fields } = decoded;
    expect(encodeWorkOrder(fields)).toEqual(yesterdays);
  });

  it("lists its form inputs in its order, read back from the form's text as the mutator takes them", () => {
    expect(workOrderTable.formFields.map((f) => f.name)).toEqual(
      workOrderTable.keys.filter((k) => WORK_ORDER_FIELD_TABLE[k].form),
    );
    expect(new Set(workOrderTable.formFields.map((f) => f.id)).size).toBe(workOrderTable.formFields.length);
    expect(workOrderTable.formFields.map((f) => f.label)).toContain("What is to be done");
    const names = workOrderTable.formFields.map((f) => f.name);
    const empty = workOrderTable.fromText(Object.fromEntries(names.map((n) => [n, " "])), names);
    expect(createWorkOrderArgs.parse({ ...base, id: "w", ...empty })).toMatchObject(
      Object.fromEntries(names.map((n) => [n, null])),
    );
  });
});
