import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { insertTrip } from "../test/trips";
import { completeWorkOrderWrites } from "../maintenance/work-order-completion";
import { commitWorkspaceWrite } from "../workspace-object";
import type { PartJson, VendorJson, WorkOrderJson } from "../../shared/maintenance/work-orders";
import type { ServiceEntry, ServiceSchedule } from "../../shared/maintenance/service";
import type { IssueJson } from "../../shared/maintenance/issues";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";

/** Work orders, parts and vendors over REST (issue 55, DESIGN.md "Maintenance"). */
const post = (path: string, token: string, json: unknown = {}) => call(path, { method: "POST", token, json });
const patch = (path: string, token: string, json: unknown) => call(path, { method: "PATCH", token, json });
const del = (path: string, token: string) => call(path, { method: "DELETE", token });
const json = async <T>(res: Response | Promise<Response>) => (await (await res).json()) as T;

async function shop() {
  const owner = await userWithWorkspace();
  const vehicleId = await vehicleWithOdometer(owner.workspaceId, 10_000, 500);
  const member = await memberWithRole(owner.workspaceId, "member");
  const viewer = await memberWithRole(owner.workspaceId, "viewer");
  const issue = await json<IssueJson>(
    post("/api/issues", owner.token, { vehicleId, title: "Brakes squeal", priority: "high" }),
  );
  const schedule = await json<ServiceSchedule>(
    post("/api/service-schedules", owner.token, {
      vehicleId,
      name: "Oil",
      everyMiles: 5000,
      lastDoneOdometerMiles: 5_000,
    }),
  );
  const pads = await json<PartJson>(
    post("/api/parts", owner.token, { name: "Brake pads", unitCostCents: 4_500, quantityOnHand: 4, reorderPoint: 2 }),
  );
  return { owner, member, viewer, vehicleId, issue, schedule, pads };
}

async function orderWithLines(s: Awaited<ReturnType<typeof shop>>, padsQuantity = 2) {
  const order = await json<WorkOrderJson>(
    post("/api/work-orders", s.member.token, {
      vehicleId: s.vehicleId,
      issueIds: [s.issue.id],
      scheduleIds: [s.schedule.id],
      tasks: ["Replace pads"],
      assigneeUserId: s.member.userId,
    }),
  );
  await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
    kind: "labor",
    quantity: 1.5,
    unitCostCents: 9_550,
    userId: s.member.userId,
  });
  await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
    kind: "part",
    quantity: padsQuantity,
    unitCostCents: 4_500,
    partId: s.pads.id,
  });
  await patch(`/api/work-orders/${order.id}`, s.member.token, { taxCents: 1_000 });
  return order;
}

describe("work orders API", () => {
  it("numbers orders per workspace, answers them with their lines and totals, and lists them by filter", async () => {
    const s = await shop();
    const first = await orderWithLines(s);
    const second = await json<WorkOrderJson>(post("/api/work-orders", s.owner.token, { vehicleId: s.vehicleId }));
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(first.status).toBe("open");
    const read = await json<WorkOrderJson>(call(`/api/work-orders/${first.id}`, { token: s.viewer.token }));
    // 1.5 h × $95.50 = $143.25; 2 × $45 = $90; tax $10
    expect(read).toMatchObject({ laborCents: 14_325, partsCents: 9_000, taxCents: 1_000, totalCents: 24_325 });
    expect(read.lines!.map((l) => [l.kind, l.costCents])).toEqual([
      ["labor", 14_325],
      ["part", 9_000],
    ]);
    const mine = await json<{ workOrders: WorkOrderJson[] }>(
      call(`/api/work-orders?assigneeUserId=${s.member.userId}&status=open`, { token: s.viewer.token }),
    );
    expect(mine.workOrders.map((o) => o.id)).toEqual([first.id]);
    const byVehicle = await json<{ workOrders: WorkOrderJson[] }>(
      call(`/api/work-orders?vehicleId=${s.vehicleId}`, { token: s.owner.token }),
    );
    expect(byVehicle.workOrders.map((o) => o.number)).toEqual([2, 1]);
  });

  it("completes in one write: resolves its issues, restarts its schedules, records the service entry of its total, takes its parts", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const res = await post(`/api/work-orders/${order.id}/complete`, s.member.token, { signedName: "Sam" });
    expect(res.status).toBe(200);
    const done = await json<WorkOrderJson>(res);
    expect(done).toMatchObject({ status: "completed", odometerMiles: 10_000, engineHours: 500, signedName: "Sam" });
    const issue = await json<IssueJson>(call(`/api/issues/${s.issue.id}`, { token: s.owner.token }));
    expect(issue).toMatchObject({ status: "resolved", resolvedByServiceEntryId: done.serviceEntryId });
    const [schedule] = (
      await json<{ schedules: ServiceSchedule[] }>(call(`/api/service-schedules`, { token: s.owner.token }))
    ).schedules;
    expect(schedule).toMatchObject({ lastDoneOdometerMiles: 10_000, nextDueMiles: 15_000 });
    const { entries } = await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }));
    expect(entries).toEqual([
      expect.objectContaining({
        id: done.serviceEntryId,
        costCents: 24_325,
        odometerMiles: 10_000,
        scheduleIds: [s.schedule.id],
        resolvesIssueIds: [s.issue.id],
      }),
    ]);
    const { parts } = await json<{ parts: PartJson[] }>(call(`/api/parts`, { token: s.owner.token }));
    expect(parts[0]).toMatchObject({ quantityOnHand: 2, belowReorder: true });
    // completed: nothing more changes until it is reopened
    expect((await post(`/api/work-orders/${order.id}/complete`, s.member.token)).status).toBe(409);
    const late = await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
      kind: "labor",
      quantity: 1,
      unitCostCents: 1,
    });
    expect(late.status).toBe(409);
  });

  it("reopening undoes exactly what the completion did", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const before = await json<{ schedules: ServiceSchedule[] }>(
      call(`/api/service-schedules`, { token: s.owner.token }),
    );
    await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    const res = await post(`/api/work-orders/${order.id}/reopen`, s.member.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "in_progress", serviceEntryId: null, completedAt: null });
    expect(await json<IssueJson>(call(`/api/issues/${s.issue.id}`, { token: s.owner.token }))).toMatchObject({
      status: "open",
      resolvedByServiceEntryId: null,
    });
    expect(await json(call(`/api/service-schedules`, { token: s.owner.token }))).toEqual(before);
    expect(
      (await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }))).entries,
    ).toEqual([]);
    const { parts } = await json<{ parts: PartJson[] }>(call(`/api/parts`, { token: s.owner.token }));
    expect(parts[0]!.quantityOnHand).toBe(4);
    expect((await post(`/api/work-orders/${order.id}/reopen`, s.member.token)).status).toBe(409);
  });

  it("refuses a completion that would take stock below zero (409 naming the part), unless allowNegativeStock", async () => {
    const s = await shop();
    const order = await orderWithLines(s, 5);
    const refused = await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    expect(refused.status).toBe(409);
    expect((await json<{ error: { message: string } }>(refused)).error.message).toContain("Brake pads");
    const after = await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.owner.token }));
    expect(after.status).toBe("open");
    expect((await json<IssueJson>(call(`/api/issues/${s.issue.id}`, { token: s.owner.token }))).status).toBe("open");
    const taken = await post(`/api/work-orders/${order.id}/complete`, s.member.token, { allowNegativeStock: true });
    expect(taken.status).toBe(200);
    const { parts } = await json<{ parts: PartJson[] }>(call(`/api/parts`, { token: s.owner.token }));
    expect(parts[0]!.quantityOnHand).toBe(-1);
  });

  it("validates: a negative quantity, a part or vendor of another workspace, both a mechanic and a vendor, status completed by PATCH", async () => {
    const s = await shop();
    const other = await userWithWorkspace();
    const theirPart = await json<PartJson>(
      post("/api/parts", other.token, { name: "X", unitCostCents: 1, quantityOnHand: 1 }),
    );
    const theirVendor = await json<VendorJson>(post("/api/vendors", other.token, { name: "Their shop" }));
    const order = await json<WorkOrderJson>(post("/api/work-orders", s.member.token, { vehicleId: s.vehicleId }));
    const line = (body: unknown) => post(`/api/work-orders/${order.id}/lines`, s.member.token, body);
    const negative = await line({ kind: "part", quantity: -1, unitCostCents: 100 });
    expect(negative.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string[]> } }>(negative)).error.fields).toHaveProperty(
      "quantity",
    );
    expect((await line({ kind: "part", quantity: 1, unitCostCents: -5 })).status).toBe(400);
    const foreign = await line({ kind: "part", quantity: 1, unitCostCents: 100, partId: theirPart.id });
    expect(foreign.status).toBe(400);
    expect((await json<{ error: { fields: Record<string, string[]> } }>(foreign)).error.fields).toHaveProperty(
      "partId",
    );
    expect((await line({ kind: "labor", quantity: 1, unitCostCents: 100, partId: s.pads.id })).status).toBe(400);
    expect((await line({ kind: "labor", quantity: 1, unitCostCents: 100, userId: other.userId })).status).toBe(400);
    const vendorRefused = await post("/api/work-orders", s.member.token, {
      vehicleId: s.vehicleId,
      vendorId: theirVendor.id,
    });
    expect(vendorRefused.status).toBe(400);
    const both = await post("/api/work-orders", s.member.token, {
      vehicleId: s.vehicleId,
      assigneeUserId: s.member.userId,
      vendorId: theirVendor.id,
    });
    expect(both.status).toBe(400);
    const theirIssue = await json<IssueJson>(
      post("/api/issues", other.token, {
        vehicleId: await vehicleWithOdometer(other.workspaceId, 1),
        title: "t",
        priority: "low",
      }),
    );
    expect(
      (await post("/api/work-orders", s.member.token, { vehicleId: s.vehicleId, issueIds: [theirIssue.id] })).status,
    ).toBe(400);
    expect((await patch(`/api/work-orders/${order.id}`, s.member.token, { status: "completed" })).status).toBe(400);
    expect(
      (await post("/api/parts", s.member.token, { name: "Oil", unitCostCents: 1, quantityOnHand: -1 })).status,
    ).toBe(400);
    expect((await post("/api/work-orders", s.member.token, { vehicleId: crypto.randomUUID() })).status).toBe(404);
  });

  it("roles: members work, owners and admins delete, viewers read and get 403 on writes", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const writes: [string, string, unknown?][] = [
      ["POST", "/api/work-orders", { vehicleId: s.vehicleId }],
      ["PATCH", `/api/work-orders/${order.id}`, { status: "in_progress" }],
      ["POST", `/api/work-orders/${order.id}/lines`, { kind: "labor", quantity: 1, unitCostCents: 1 }],
      ["POST", `/api/work-orders/${order.id}/complete`, {}],
      ["POST", "/api/parts", { name: "P", unitCostCents: 1, quantityOnHand: 1 }],
      ["POST", "/api/vendors", { name: "V" }],
      ["DELETE", `/api/work-orders/${order.id}`],
      ["DELETE", `/api/parts/${s.pads.id}`],
    ];
    for (const [method, path, body] of writes) {
      const res = await call(path, { method, token: s.viewer.token, json: body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await del(`/api/work-orders/${order.id}`, s.member.token)).status).toBe(403);
    expect((await del(`/api/parts/${s.pads.id}`, s.member.token)).status).toBe(403);
    expect((await patch(`/api/work-orders/${order.id}`, s.member.token, { status: "in_progress" })).status).toBe(200);
    const admin = await memberWithRole(s.owner.workspaceId, "admin");
    expect((await del(`/api/work-orders/${order.id}`, admin.token)).status).toBe(204);
    expect((await call(`/api/work-orders/${order.id}`, { token: s.owner.token })).status).toBe(404);
    expect((await del(`/api/parts/${s.pads.id}`, s.owner.token)).status).toBe(204);
  });

  it("keeps tenants apart: another workspace's order, line, part and vendor are 404 and never listed", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const { lines } = await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.owner.token }));
    const vendor = await json<VendorJson>(post("/api/vendors", s.owner.token, { name: "Tyres & Co", phone: "555" }));
    const other = await userWithWorkspace();
    const t = other.token;
    expect((await call(`/api/work-orders/${order.id}`, { token: t })).status).toBe(404);
    expect((await patch(`/api/work-orders/${order.id}`, t, { status: "on_hold" })).status).toBe(404);
    expect(
      (await post(`/api/work-orders/${order.id}/lines`, t, { kind: "labor", quantity: 1, unitCostCents: 1 })).status,
    ).toBe(404);
    expect((await patch(`/api/work-orders/${order.id}/lines/${lines![0]!.id}`, t, { quantity: 2 })).status).toBe(404);
    expect((await del(`/api/work-orders/${order.id}/lines/${lines![0]!.id}`, t)).status).toBe(404);
    expect((await post(`/api/work-orders/${order.id}/complete`, t)).status).toBe(404);
    expect((await post(`/api/work-orders/${order.id}/reopen`, t)).status).toBe(404);
    expect((await del(`/api/work-orders/${order.id}`, t)).status).toBe(404);
    expect((await patch(`/api/parts/${s.pads.id}`, t, { quantityOnHand: 0 })).status).toBe(404);
    expect((await patch(`/api/vendors/${vendor.id}`, t, { name: "Mine" })).status).toBe(404);
    expect(await json(call("/api/work-orders", { token: t }))).toEqual({ workOrders: [] });
    expect(await json(call("/api/parts", { token: t }))).toEqual({ parts: [] });
    expect(await json(call("/api/vendors", { token: t }))).toEqual({ vendors: [] });
  });

  it("lines: edit and remove change the totals", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const { lines } = await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.owner.token }));
    const [labor, part] = lines!;
    expect(
      (await patch(`/api/work-orders/${order.id}/lines/${labor!.id}`, s.member.token, { quantity: 2 })).status,
    ).toBe(200);
    expect((await del(`/api/work-orders/${order.id}/lines/${part!.id}`, s.member.token)).status).toBe(204);
    const after = await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.owner.token }));
    expect(after).toMatchObject({ laborCents: 19_100, partsCents: 0, totalCents: 20_100 });
    expect(after.lines).toHaveLength(1);
  });
});

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
async function photo(token: string) {
  const res = await call("/api/photos", { method: "POST", token, headers: { "Content-Type": "image/png" }, body: PNG });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("photos and a signature on completion", () => {
  it("keeps the photos and the signature of whoever completed it; reopening clears the signature with the name", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const [photoId, signaturePhotoId] = [await photo(s.member.token), await photo(s.member.token)];
    const res = await post(`/api/work-orders/${order.id}/complete`, s.member.token, {
      signedName: "Sam",
      photoIds: [photoId],
      signaturePhotoId,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ signedName: "Sam", photoIds: [photoId], signaturePhotoId });
    const read = await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.viewer.token }));
    expect(read).toMatchObject({ photoIds: [photoId], signaturePhotoId });
    const reopened = await json<WorkOrderJson>(post(`/api/work-orders/${order.id}/reopen`, s.member.token));
    expect(reopened).toMatchObject({ signedName: null, signaturePhotoId: null });
  });

  it("refuses a signature that is another workspace's photo, and one that is not a photo id", async () => {
    const s = await shop();
    const other = await userWithWorkspace();
    const order = await orderWithLines(s);
    const foreign = await post(`/api/work-orders/${order.id}/complete`, s.member.token, {
      signaturePhotoId: await photo(other.token),
    });
    expect(foreign.status).toBe(404);
    const bad = await post(`/api/work-orders/${order.id}/complete`, s.member.token, { signaturePhotoId: "scribble" });
    expect(bad.status).toBe(400);
    expect((await json<WorkOrderJson>(call(`/api/work-orders/${order.id}`, { token: s.owner.token }))).status).toBe(
      "open",
    );
  });
});

describe("a completion dated in the past", () => {
  const HOUR = 3_600_000;

  it("records the beacon's odometer and the engine hours at that moment, on the order and its service entry", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    const now = Date.now();
    // Done yesterday, entered today: 150 miles driven since, 30 of them in a trip under way at the time.
    await insertTrip(s.owner.workspaceId, s.vehicleId, now - 20 * HOUR, now - 18 * HOUR, 120);
    await insertTrip(s.owner.workspaceId, s.vehicleId, now - 25 * HOUR, now - 23 * HOUR, 60);
    const completedAt = new Date(now - 24 * HOUR).toISOString();
    const done = await json<WorkOrderJson>(
      post(`/api/work-orders/${order.id}/complete`, s.member.token, { completedAt }),
    );
    // 500 engine hours now, 3 of them on the road since (2 h of the later trip, 1 h of the one under way).
    expect(done).toMatchObject({ status: "completed", completedAt, odometerMiles: 9_850, engineHours: 497 });
    const { entries } = await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }));
    expect(entries[0]).toMatchObject({ odometerMiles: 9_850, engineHours: 497 });
  });

  it("keeps a typed odometer, and one completed now reads the odometer as it is", async () => {
    const s = await shop();
    const now = Date.now();
    await insertTrip(s.owner.workspaceId, s.vehicleId, now - 3 * HOUR, now - 2 * HOUR, 40);
    const typed = await orderWithLines(s, 1);
    const completedAt = new Date(now - 5 * HOUR).toISOString();
    const body = { completedAt, odometerMiles: 9_900 };
    expect(await json(post(`/api/work-orders/${typed.id}/complete`, s.member.token, body))).toMatchObject({
      odometerMiles: 9_900,
    });
    const current = await orderWithLines(s, 1);
    expect(await json(post(`/api/work-orders/${current.id}/complete`, s.member.token))).toMatchObject({
      odometerMiles: 10_000,
    });
  });
});

describe("completions racing for the same stock", () => {
  const partsOf = async (token: string) => (await json<{ parts: PartJson[] }>(call(`/api/parts`, { token }))).parts;

  it("a completion whose parts left stock between its checks and its write is refused whole: nothing is half-written", async () => {
    const s = await shop();
    const first = await orderWithLines(s, 3);
    const second = await orderWithLines(s, 3);
    const db = database(env.DB);
    // The first completion's checks pass (4 pads on hand, 3 needed)...
    const checked = await completeWorkOrderWrites(
      db,
      s.owner.workspaceId,
      first.id,
      { photoIds: [], allowNegativeStock: false },
      { userId: s.member.userId, serviceEntryId: crypto.randomUUID(), now: Date.now() },
    );
    // ...then the second takes 3 of the 4 before the first writes.
    const done = await json<WorkOrderJson>(post(`/api/work-orders/${second.id}/complete`, s.member.token));
    const w = { env, db, waitUntil: () => undefined };
    await expect(commitWorkspaceWrite(w, s.owner.workspaceId, checked.writes)).rejects.toThrow();
    expect((await partsOf(s.owner.token))[0]!.quantityOnHand).toBe(1);
    const order = await json<WorkOrderJson>(call(`/api/work-orders/${first.id}`, { token: s.owner.token }));
    expect(order).toMatchObject({ status: "open", serviceEntryId: null });
    const { entries } = await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }));
    expect(entries.map((e) => e.id)).toEqual([done.serviceEntryId]);
  });

  it("two completions sent at once for the last pads: one completes, the other is refused 409 naming the part", async () => {
    const s = await shop();
    const first = await orderWithLines(s, 3);
    const second = await orderWithLines(s, 3);
    const answers = await Promise.all(
      [first, second].map((o) => post(`/api/work-orders/${o.id}/complete`, s.member.token)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect((await json<{ error: { message: string } }>(refused)).error.message).toContain("Brake pads");
    expect((await partsOf(s.owner.token))[0]!.quantityOnHand).toBe(1);
  });

  it("the same order completed twice at once is completed once: one entry, its stock taken once", async () => {
    const s = await shop();
    const order = await orderWithLines(s, 2);
    const answers = await Promise.all([1, 2].map(() => post(`/api/work-orders/${order.id}/complete`, s.member.token)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await partsOf(s.owner.token))[0]!.quantityOnHand).toBe(2);
    const { entries } = await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }));
    expect(entries).toHaveLength(1);
  });
});

describe("a workspace that requires lines before completing", () => {
  const requireLines = (token: string, workOrderLinesRequired: boolean) =>
    patch("/api/workspace/preferences", token, { workOrderLinesRequired });

  it("owners and admins turn it on in the preferences; a viewer or a member cannot", async () => {
    const s = await shop();
    expect(await json(call("/api/workspace/preferences", { token: s.viewer.token }))).toMatchObject({
      workOrderLinesRequired: false,
    });
    expect((await requireLines(s.viewer.token, true)).status).toBe(403);
    expect((await requireLines(s.member.token, true)).status).toBe(403);
    expect(await json(requireLines(s.owner.token, true))).toMatchObject({ workOrderLinesRequired: true });
    expect((await requireLines(s.owner.token, "yes" as unknown as boolean)).status).toBe(400);
  });

  it("refuses to complete an order with no lines: 400 lines_required, nothing written; with a line it completes", async () => {
    const s = await shop();
    await requireLines(s.owner.token, true);
    const order = await json<WorkOrderJson>(post("/api/work-orders", s.member.token, { vehicleId: s.vehicleId }));
    const refused = await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    expect(refused.status).toBe(400);
    const { error } = await json<{ error: { code: string; message: string } }>(refused);
    expect(error.code).toBe("lines_required");
    expect(error.message).toContain("requires at least one labour or part line");
    expect(await json(call(`/api/work-orders/${order.id}`, { token: s.member.token }))).toMatchObject({
      status: "open",
      serviceEntryId: null,
    });
    await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
      kind: "labor",
      quantity: 1,
      unitCostCents: 5_000,
    });
    expect((await post(`/api/work-orders/${order.id}/complete`, s.member.token)).status).toBe(200);
  });

  it("is the workspace's own: another workspace that does not require lines completes an empty order", async () => {
    const strict = await shop();
    expect((await requireLines(strict.owner.token, true)).status).toBe(200);
    const other = await shop();
    const order = await json<WorkOrderJson>(
      post("/api/work-orders", other.member.token, { vehicleId: other.vehicleId }),
    );
    const res = await post(`/api/work-orders/${order.id}/complete`, other.member.token);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ status: "completed", totalCents: 0 });
  });
});

describe("parts, vendors and my actions", () => {
  it("lists parts at or below their reorder point, and My actions names them for owners and admins only", async () => {
    const s = await shop();
    await post("/api/parts", s.owner.token, {
      name: "Oil filter",
      unitCostCents: 900,
      quantityOnHand: 1,
      reorderPoint: 3,
    });
    const low = await json<{ parts: PartJson[] }>(call("/api/parts?belowReorder=true", { token: s.viewer.token }));
    expect(low.parts.map((p) => p.name)).toEqual(["Oil filter"]);
    const order = await orderWithLines(s);
    const ownerActions = await json<{ parts: PartJson[]; workOrders: WorkOrderJson[] }>(
      call("/api/my-actions", { token: s.owner.token }),
    );
    expect(ownerActions.parts.map((p) => p.name)).toEqual(["Oil filter"]);
    expect(ownerActions.workOrders).toEqual([]);
    const memberActions = await json<{ parts: PartJson[]; workOrders: WorkOrderJson[] }>(
      call("/api/my-actions", { token: s.member.token }),
    );
    expect(memberActions.parts).toEqual([]);
    expect(memberActions.workOrders.map((o) => o.id)).toEqual([order.id]);
    await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    expect(
      (await json<{ workOrders: unknown[] }>(call("/api/my-actions", { token: s.member.token }))).workOrders,
    ).toEqual([]);
  });

  it("vendors: added, edited, listed; a work order sent to one carries its name onto the service entry", async () => {
    const s = await shop();
    const vendor = await json<VendorJson>(
      post("/api/vendors", s.member.token, { name: "Tyres & Co", email: "shop@example.com" }),
    );
    expect((await post("/api/vendors", s.member.token, { name: "X", email: "not an address" })).status).toBe(400);
    await patch(`/api/vendors/${vendor.id}`, s.member.token, { phone: "555-0100" });
    expect((await json<{ vendors: VendorJson[] }>(call("/api/vendors", { token: s.viewer.token }))).vendors).toEqual([
      expect.objectContaining({ name: "Tyres & Co", phone: "555-0100" }),
    ]);
    const order = await json<WorkOrderJson>(
      post("/api/work-orders", s.member.token, { vehicleId: s.vehicleId, vendorId: vendor.id }),
    );
    const sent = await json<{ workOrders: WorkOrderJson[] }>(
      call(`/api/work-orders?vendorId=${vendor.id}`, { token: s.owner.token }),
    );
    expect(sent.workOrders.map((o) => o.id)).toEqual([order.id]);
    await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
      kind: "part",
      quantity: 4,
      unitCostCents: 12_000,
      description: "Tyres",
    });
    await post(`/api/work-orders/${order.id}/complete`, s.member.token, { odometerMiles: 10_050 });
    const { entries } = await json<{ entries: ServiceEntry[] }>(call(`/api/service-entries`, { token: s.owner.token }));
    expect(entries[0]).toMatchObject({ vendor: "Tyres & Co", costCents: 48_000, odometerMiles: 10_050 });
  });
});

describe("the cost report with work orders", () => {
  it("splits a completed order's service cost into labour and parts, by vehicle and by month; reopening takes it out", async () => {
    const s = await shop();
    const order = await orderWithLines(s);
    await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    const today = new Date().toISOString().slice(0, 10);
    const report = (by: string) =>
      json<{ rows: Record<string, number>[]; total: Record<string, number> }>(
        call(`/api/reports/costs?from=${today.slice(0, 8)}01&to=${today}&by=${by}`, { token: s.owner.token }),
      );
    const byVehicle = await report("vehicle");
    expect(byVehicle.rows[0]).toMatchObject({
      serviceCostCents: 24_325,
      laborCostCents: 14_325,
      partsCostCents: 9_000,
    });
    expect((await report("month")).total).toMatchObject({ laborCostCents: 14_325, partsCostCents: 9_000 });
    await post(`/api/work-orders/${order.id}/reopen`, s.member.token);
    expect((await report("vehicle")).rows[0]).toMatchObject({
      serviceCostCents: 0,
      laborCostCents: 0,
      partsCostCents: 0,
    });
  });
});

describe("what a completion costs in D1", () => {
  it("writes in one batch: 3 issues, 1 schedule and 10 lines of 5 parts in one transaction", async () => {
    const { d1Meter } = await import("../../db/d1-meter");
    const s = await shop();
    const issueIds = [s.issue.id];
    for (const title of ["Mirror loose", "Wiper torn"])
      issueIds.push(
        (await json<IssueJson>(post("/api/issues", s.owner.token, { vehicleId: s.vehicleId, title, priority: "low" })))
          .id,
      );
    const partIds = [s.pads.id];
    for (let i = 0; i < 4; i++)
      partIds.push(
        (
          await json<PartJson>(
            post("/api/parts", s.owner.token, { name: `Part ${i}`, unitCostCents: 100, quantityOnHand: 10 }),
          )
        ).id,
      );
    const order = await json<WorkOrderJson>(
      post("/api/work-orders", s.member.token, { vehicleId: s.vehicleId, issueIds, scheduleIds: [s.schedule.id] }),
    );
    for (let i = 0; i < 10; i++)
      await post(`/api/work-orders/${order.id}/lines`, s.member.token, {
        kind: i < 5 ? "labor" : "part",
        quantity: 1,
        unitCostCents: 1_000,
        partId: i < 5 ? null : partIds[i - 5],
      });
    Object.assign(d1Meter, { on: true, roundTrips: 0, statements: 0, byStatement: {} });
    const res = await post(`/api/work-orders/${order.id}/complete`, s.member.token);
    const { roundTrips, statements, byStatement } = { ...d1Meter };
    d1Meter.on = false;
    expect(res.status).toBe(200);
    const writes = Object.entries(byStatement).filter(([sql]) => /^(insert|update)/i.test(sql));
    // measured: 11 round trips (the reads, then one batch), 22 statements, 12 of them writes: the
    // order's guard and the stock's (one for the 5 parts), the bump, the entry, 1 schedule, 1 list
    // of issues, 5 parts, the order
    expect(writes.reduce((n, [, c]) => n + c, 0)).toBe(12);
    expect(roundTrips).toBeLessThanOrEqual(12);
    expect(statements).toBeLessThanOrEqual(24);
  });
});
