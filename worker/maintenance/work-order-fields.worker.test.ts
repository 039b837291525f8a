import { getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import {
  decodeWorkOrder,
  workOrderKey,
  WORK_ORDER_PREFIX,
  type WorkOrderJson,
  type WorkOrderWire,
} from "../../shared/maintenance/work-orders";
import { WORK_ORDER_FIELD_TABLE, workOrderTable } from "../../shared/maintenance/work-order-fields";
import { workOrders } from "../../db/schema";
import { workOrderJson } from "../api/work-order-answers";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";
import { workOrderRow } from "../test/work-orders";

/**
 * Every field of the work order table (shared/maintenance/work-order-fields.ts,
 * docs/decisions/0094) end to end, as a client sees it: given over REST, answered, stored,
 * listed, patched, kept, cleared, pulled by sync and pushed by the mutators. A field added to the
 * table is checked here with no new test (docs/add-a-field.md); a column added without its table
 * entry, or an entry without its column, fails the last test.
 */
async function rest(token: string, path: string, method: string, json: unknown): Promise<WorkOrderJson> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

async function pulled(token: string, id: string) {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === workOrderKey(id));
  return decodeWorkOrder(put!.key.slice(WORK_ORDER_PREFIX.length), put!.value as WorkOrderWire);
}

async function shop() {
  const owner = await userWithWorkspace();
  return { token: owner.token, vehicleId: await insertVehicle(owner.workspaceId) };
}

describe.each(workOrderTable.keys)("the work order field %s", (key) => {
  const example = WORK_ORDER_FIELD_TABLE[key].example;

  it("is kept as given over REST, answered, listed, patched, cleared and pulled by sync", async () => {
    const { token, vehicleId } = await shop();
    const created = await rest(token, "/api/work-orders", "POST", { vehicleId, [key]: example });
    expect(created[key]).toEqual(example);
    expect((await workOrderRow(created.id))![key]).toEqual(example);
    expect((await pulled(token, created.id))[key]).toEqual(example);
    const listed = (await (await call("/api/work-orders?status=all", { token })).json()) as {
      workOrders: WorkOrderJson[];
    };
    expect(listed.workOrders.find((o) => o.id === created.id)![key]).toEqual(example);

    const plain = await rest(token, "/api/work-orders", "POST", { vehicleId });
    expect(plain[key]).toBeNull();
    expect((await rest(token, `/api/work-orders/${plain.id}`, "PATCH", { [key]: example }))[key]).toEqual(example);
    // a patch that does not name it keeps it
    expect((await rest(token, `/api/work-orders/${plain.id}`, "PATCH", { status: "on_hold" }))[key]).toEqual(example);
    expect((await rest(token, `/api/work-orders/${plain.id}`, "PATCH", { [key]: null }))[key]).toBeNull();
    expect((await pulled(token, plain.id))[key]).toBeNull();
  });

  it("is kept as the sync mutators give it; a value of the wrong kind is a 400", async () => {
    const { token, vehicleId } = await shop();
    const id = crypto.randomUUID();
    const created = await pushMutations(token, [{ name: "createWorkOrder", args: { id, vehicleId, [key]: example } }]);
    expect(created.refused ?? []).toEqual([]);
    expect((await workOrderRow(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    const cleared = await pushMutations(token, [{ name: "updateWorkOrder", args: { id, [key]: null } }]);
    expect(cleared.refused ?? []).toEqual([]);
    expect((await workOrderRow(id))![key]).toBeNull();
    const bad = await call("/api/work-orders", { method: "POST", token, json: { vehicleId, [key]: {} } });
    expect(bad.status).toBe(400);
  });
});

/** A work order's REST answer as DESIGN.md gives it (issue 55): the table's fields among these, none added or lost. */
const ANSWER_KEYS = [
  ...["id", "number", "vehicleId", "status", "assigneeUserId", "vendorId", "dueDate", "description"],
  ...["issueIds", "scheduleIds", "tasks", "laborCents", "partsCents", "taxCents", "totalCents"],
  ...["odometerMiles", "engineHours", "completedAt", "completedByUserId", "signedName", "photoIds"],
  ...["signaturePhotoId", "serviceEntryId", "createdByUserId", "createdAt", "updatedAt"],
];
/** The columns with rules of their own (shared/maintenance/work-orders.ts), and the row's bookkeeping. */
const COLUMNS_OUTSIDE_THE_TABLE = [
  ...["id", "workspaceId", "version", "deleted", "createdVersion", "number", "vehicleId", "status"],
  ...["assigneeUserId", "vendorId", "issueIds", "scheduleIds", "tasks", "taxCents"],
  ...["odometerMiles", "engineHours", "completedAt", "completedByUserId", "signedName", "photoIds"],
  ...["signaturePhotoId", "serviceEntryId", "completion", "createdByUserId", "createdAt", "updatedAt"],
];

describe("a work order's answer and row", () => {
  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const { token, vehicleId } = await shop();
    const created = await rest(token, "/api/work-orders", "POST", { vehicleId });
    // `lines` is the detail's alone (GET /api/work-orders/{id}), optional in the declaration
    const documented = Object.keys((workOrderJson as unknown as AnyZodObject).shape).filter((k) => k !== "lines");
    expect(
      Object.keys(created)
        .filter((k) => k !== "lines")
        .sort(),
    ).toEqual([...documented].sort());
    expect([...documented].sort()).toEqual(
      [...ANSWER_KEYS, ...workOrderTable.keys.filter((k) => !ANSWER_KEYS.includes(k))].sort(),
    );
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    const columns = Object.keys(getTableColumns(workOrders));
    expect(columns.sort()).toEqual([...COLUMNS_OUTSIDE_THE_TABLE, ...workOrderTable.keys].sort());
  });
});
