import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import {
  inAddedOrder,
  partKey,
  workOrderKey,
  WORK_ORDER_LINE_PREFIX,
  type SyncedWorkOrder,
  type SyncedWorkOrderLine,
  type WorkOrderJson,
} from "../../shared/maintenance/work-orders";
import { issueKey, type Issue } from "../../shared/maintenance/issues";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pullPatch, pushMutations, type SyncPatch } from "../test/sync";
import { insertWorkOrder, workOrderRow } from "../test/work-orders";
import { serverMutators } from "./mutators";
import { COULD_NOT_APPLY } from "./push";

/** Work orders, lines, parts and vendors synced for offline work (issue 55, docs/decisions/0087). */
const put = (patch: SyncPatch, key: string) => patch.find((p) => p.op === "put" && p.key === key);
const bytesOf = (op: unknown) => new TextEncoder().encode(JSON.stringify(op)).length;

async function post<T>(token: string, path: string, json: unknown): Promise<T> {
  const res = await call(path, { method: "POST", token, json });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function shop() {
  const owner = await userWithWorkspace();
  const mechanic = await memberWithRole(owner.workspaceId, "member");
  const vehicleId = await vehicleWithOdometer(owner.workspaceId, 20_000, 800);
  const issue = await post<{ id: string }>(owner.token, "/api/issues", { vehicleId, title: "Leak", priority: "high" });
  const pads = await post<{ id: string }>(owner.token, "/api/parts", {
    name: "Brake pads",
    unitCostCents: 4_500,
    quantityOnHand: 6,
    reorderPoint: 2,
  });
  return { owner, mechanic, vehicleId, issue, pads };
}

describe("work orders in the synced store", () => {
  it("a first sync carries each work order in at most 200 bytes, decoded to what the pages read", async () => {
    const s = await shop();
    const order = await post<WorkOrderJson>(s.owner.token, "/api/work-orders", {
      vehicleId: s.vehicleId,
      issueIds: [s.issue.id],
      assigneeUserId: s.mechanic.userId,
      dueDate: "2026-12-01",
    });
    await post(s.owner.token, `/api/work-orders/${order.id}/lines`, {
      kind: "part",
      quantity: 2,
      unitCostCents: 4_500,
      partId: s.pads.id,
    });
    const { patch } = await pullPatch(s.mechanic.token);
    const op = put(patch, workOrderKey(order.id))!;
    // measured: 180 B with a vehicle, a number, an assignee, one issue and a due date; a part line
    // 145 B (127 B before it carried when it was added, which orders an order's lines)
    expect(bytesOf(op)).toBeLessThanOrEqual(200);
    const lineOp = patch.find((p) => p.key?.startsWith(WORK_ORDER_LINE_PREFIX))!;
    expect(bytesOf(lineOp)).toBeLessThanOrEqual(150);
    expect(decodeSyncedValue(op.key, op.value)).toMatchObject({
      id: order.id,
      number: 1,
      vehicleId: s.vehicleId,
      status: "open",
      assigneeUserId: s.mechanic.userId,
      issueIds: [s.issue.id],
      dueDate: "2026-12-01",
    } satisfies Partial<SyncedWorkOrder>);
    expect(decodeSyncedValue(lineOp.key, lineOp.value)).toMatchObject({ workOrderId: order.id, partId: s.pads.id });
    expect(decodeSyncedValue(partKey(s.pads.id), put(patch, partKey(s.pads.id))!.value)).toMatchObject({
      name: "Brake pads",
      quantityOnHand: 6,
      reorderPoint: 2,
    });
  });

  it("a full sync leaves out orders closed more than 90 days ago and their lines; an incremental one sends a deletion", async () => {
    const s = await shop();
    const old = await insertWorkOrder(s.owner.workspaceId, {
      vehicleId: s.vehicleId,
      status: "completed",
      updatedAt: Date.now() - 100 * 86_400_000,
    });
    const current = await insertWorkOrder(s.owner.workspaceId, { vehicleId: s.vehicleId });
    const { patch, cookie } = await pullPatch(s.owner.token);
    expect(put(patch, workOrderKey(old))).toBeUndefined();
    expect(put(patch, workOrderKey(current))).toBeDefined();
    expect((await call(`/api/work-orders/${current}`, { method: "DELETE", token: s.owner.token })).status).toBe(204);
    const next = await pullPatch(s.owner.token, cookie);
    expect(next.patch).toContainEqual({ op: "del", key: workOrderKey(current) });
  });

  it("a mechanic's offline lines and completion apply on push: issue resolved, entry recorded, stock taken", async () => {
    const s = await shop();
    const order = await post<WorkOrderJson>(s.owner.token, "/api/work-orders", {
      vehicleId: s.vehicleId,
      issueIds: [s.issue.id],
      assigneeUserId: s.mechanic.userId,
    });
    const serviceEntryId = crypto.randomUUID();
    // drawn offline: the signature's photo uploads after the completion is pushed
    const signaturePhotoId = crypto.randomUUID();
    const { refused } = await pushMutations(s.mechanic.token, [
      { name: "updateWorkOrder", args: { id: order.id, status: "in_progress" } },
      {
        name: "addWorkOrderLine",
        args: { id: crypto.randomUUID(), workOrderId: order.id, kind: "labor", quantity: 2, unitCostCents: 10_000 },
      },
      {
        name: "addWorkOrderLine",
        args: {
          id: crypto.randomUUID(),
          workOrderId: order.id,
          kind: "part",
          quantity: 4,
          unitCostCents: 4_500,
          partId: s.pads.id,
        },
      },
      {
        name: "completeWorkOrder",
        args: { id: order.id, serviceEntryId, signedName: "Mechanic", signaturePhotoId },
      },
      // replayed from a second tab: refused, nothing done twice
      { name: "completeWorkOrder", args: { id: order.id, serviceEntryId: crypto.randomUUID() } },
    ]);
    expect(refused?.map((r) => r.name)).toEqual(["completeWorkOrder"]);
    expect((await workOrderRow(order.id))?.status).toBe("completed");
    const { patch } = await pullPatch(s.owner.token);
    expect(decodeSyncedValue(workOrderKey(order.id), put(patch, workOrderKey(order.id))!.value)).toMatchObject({
      status: "completed",
      signedName: "Mechanic",
      signaturePhotoId,
    } satisfies Partial<SyncedWorkOrder>);
    expect(decodeSyncedValue(issueKey(s.issue.id), put(patch, issueKey(s.issue.id))!.value)).toMatchObject({
      status: "resolved",
    } satisfies Partial<Issue>);
    expect(decodeSyncedValue(partKey(s.pads.id), put(patch, partKey(s.pads.id))!.value)).toMatchObject({
      quantityOnHand: 2,
    });
    const entries = (await (await call("/api/service-entries", { token: s.owner.token })).json()) as {
      entries: { costCents: number }[];
    };
    expect(entries.entries.map((e) => e.costCents)).toEqual([38_000]);
  });

  it("lines keep the order they were added in the REST answer and in a pull: offline ones before those added since", async () => {
    const s = await shop();
    const order = await post<WorkOrderJson>(s.owner.token, "/api/work-orders", { vehicleId: s.vehicleId });
    const offline = (description: string, createdAt: number) => ({
      name: "addWorkOrderLine",
      args: {
        id: crypto.randomUUID(),
        workOrderId: order.id,
        kind: "labor",
        quantity: 1,
        unitCostCents: 100,
        description,
        createdAt,
      },
    });
    // The mechanic adds two lines with no signal; the office adds one over REST; then the phone reconnects.
    const queued = [offline("Drain oil", Date.now() - 60_000), offline("Oil filter", Date.now() - 30_000)];
    await post(s.owner.token, `/api/work-orders/${order.id}/lines`, {
      kind: "labor",
      quantity: 1,
      unitCostCents: 100,
      description: "Inspect brakes",
    });
    expect((await pushMutations(s.mechanic.token, queued)).refused ?? []).toEqual([]);
    const added = ["Drain oil", "Oil filter", "Inspect brakes"];
    const answer = await (await call(`/api/work-orders/${order.id}`, { token: s.owner.token })).json();
    expect((answer as WorkOrderJson).lines!.map((l) => l.description)).toEqual(added);
    // A reload reads the store's lines by key (their packed ids): in added order only once sorted as the page sorts them.
    const { patch } = await pullPatch(s.owner.token);
    const lines = patch
      .filter((p) => p.op === "put" && p.key.startsWith(WORK_ORDER_LINE_PREFIX))
      .map((p) => decodeSyncedValue(p.key, p.value) as SyncedWorkOrderLine);
    expect(inAddedOrder(lines).map((l) => l.description)).toEqual(added);
  });

  it("a completion pushed that would take stock below zero is refused, naming the part, and writes nothing", async () => {
    const s = await shop();
    const order = await post<WorkOrderJson>(s.owner.token, "/api/work-orders", { vehicleId: s.vehicleId });
    await post(s.owner.token, `/api/work-orders/${order.id}/lines`, {
      kind: "part",
      quantity: 9,
      unitCostCents: 4_500,
      partId: s.pads.id,
    });
    const { refused } = await pushMutations(s.mechanic.token, [
      { name: "completeWorkOrder", args: { id: order.id, serviceEntryId: crypto.randomUUID() } },
    ]);
    expect(refused?.[0]?.message).toContain("Brake pads");
    expect((await workOrderRow(order.id))?.status).toBe("open");
  });

  it("a completion pushed for an order with no lines, where the workspace requires them, is refused saying so", async () => {
    const s = await shop();
    const prefs = await call("/api/workspace/preferences", {
      method: "PATCH",
      token: s.owner.token,
      json: { workOrderLinesRequired: true },
    });
    expect(prefs.status).toBe(200);
    const order = await post<WorkOrderJson>(s.owner.token, "/api/work-orders", { vehicleId: s.vehicleId });
    const { refused } = await pushMutations(s.mechanic.token, [
      { name: "completeWorkOrder", args: { id: order.id, serviceEntryId: crypto.randomUUID() } },
    ]);
    expect(refused?.map((r) => r.message)).toEqual([
      `Work order #${order.number} has no lines: this workspace requires at least one labour or part line before a work order is completed`,
    ]);
    expect((await workOrderRow(order.id))?.status).toBe("open");
  });
});

describe("a key clash on work orders in a push", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is refused in the answer, not taken for a completion's lost race the browser would retry forever", async () => {
    const s = await shop();
    const id = crypto.randomUUID();
    // Another request creates an order with the same id between this mutation's check and its commit.
    const create = serverMutators.createWorkOrder;
    const raced = vi
      .spyOn(serverMutators, "createWorkOrder")
      .mockImplementation(async (db, workspaceId, input, caller) => {
        const writes = await create(db, workspaceId, input, caller);
        await insertWorkOrder(workspaceId, { id, vehicleId: s.vehicleId });
        return writes;
      });
    const { refused } = await pushMutations(s.mechanic.token, [
      { name: "createWorkOrder", args: { id, vehicleId: s.vehicleId, createdAt: Date.now() } },
    ]);
    expect(raced).toHaveBeenCalledOnce();
    expect(refused?.map((r) => [r.name, r.message])).toEqual([["createWorkOrder", COULD_NOT_APPLY]]);
  });
});
