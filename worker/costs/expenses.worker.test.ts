import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { expenseKey, type Expense, type ExpenseWire } from "../../shared/costs/expenses";
import { database } from "../test/db";
import { expenses, photos } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pushMutations as push, pullPatch } from "../test/sync";

/** Expenses over REST and through sync (issue 42 part B, DESIGN.md "Fuel, costs and renewals", ADR 0049). */
const send = (method: string, path: string, token: string, json?: unknown) => call(path, { method, token, json });
const post = (token: string, json: unknown) => send("POST", "/api/expenses", token, json);
const listed = async (token: string, query: string) =>
  ((await (await call(`/api/expenses?${query}`, { token })).json()) as { expenses: Expense[] }).expenses;
const rowsOf = (workspaceId: string) =>
  database(env.DB).select().from(expenses).where(eq(expenses.workspaceId, workspaceId)).all();
const row = (id: string) => database(env.DB).select().from(expenses).where(eq(expenses.id, id)).get();
const toll = (vehicleId: string, more: Record<string, unknown> = {}) => ({
  vehicleId,
  date: "2026-11-20",
  kind: "tolls",
  costCents: 1250,
  ...more,
});
const DAY = 86_400_000;
const dayAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

type Patch = { op: string; key: string; value?: unknown }[];
const pull = (token: string, cookie: unknown = null) => pullPatch(token, cookie);
const putsOf = (patch: Patch) => new Map(patch.filter((p) => p.op === "put").map((p) => [p.key, p.value]));

async function insertExpense(workspaceId: string, vehicleId: string, date: string) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db
      .insert(expenses)
      .values({ id, workspaceId, vehicleId, date, kind: "parking", costCents: 300, version: versionOf(workspaceId) }),
  ]);
  return id;
}

describe("expenses API", () => {
  it("adds an expense and lists it by vehicle and by a range of days, both ends included", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const other = await vehicleWithOdometer(a.workspaceId, 100);
    const res = await post(a.token, toll(vehicleId, { note: "Bridge" }));
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      vehicleId,
      date: "2026-11-20",
      kind: "tolls",
      costCents: 1250,
      note: "Bridge",
      photoIds: [],
    });
    await post(a.token, toll(vehicleId, { date: "2026-10-01", kind: "insurance", costCents: 90_000 }));
    await post(a.token, toll(other, { date: "2026-11-21" }));
    expect((await listed(a.token, `vehicleId=${vehicleId}`)).map((e) => e.date)).toEqual(["2026-11-20", "2026-10-01"]);
    expect((await listed(a.token, "from=2026-11-20&to=2026-11-21")).map((e) => e.date)).toEqual([
      "2026-11-21",
      "2026-11-20",
    ]);
  });

  it("refuses bad input with 400 naming the field, and writes nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    for (const [json, field] of [
      [toll(vehicleId, { kind: "fuel" }), "kind"],
      [toll(vehicleId, { date: "2026-02-30" }), "date"],
      [toll(vehicleId, { date: "yesterday" }), "date"],
      [toll(vehicleId, { costCents: -1 }), "costCents"],
      [toll(vehicleId, { costCents: 12.5 }), "costCents"],
      [toll(vehicleId, { costCents: undefined }), "costCents"],
      [toll(vehicleId, { note: "x".repeat(501) }), "note"],
      [toll(vehicleId, { photoIds: ["not-a-uuid"] }), "photoIds.0"],
    ] as const) {
      const res = await post(a.token, json);
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields: Record<string, string[]> } };
      expect(Object.keys(body.error.fields), JSON.stringify(json)).toContain(field);
    }
    expect((await call("/api/expenses?from=soon", { token: a.token })).status).toBe(400);
    expect(await rowsOf(a.workspaceId)).toEqual([]);
  });

  it("lets members add, owners and admins correct and delete, and viewers only read", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const admin = await memberWithRole(a.workspaceId, "admin");
    const member = await memberWithRole(a.workspaceId, "member");
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await post(viewer.token, toll(vehicleId))).status).toBe(403);
    const added = await post(member.token, toll(vehicleId, { note: "Bridge" }));
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as Expense;
    const path = `/api/expenses/${id}`;
    expect((await send("PATCH", path, member.token, { costCents: 1 })).status).toBe(403);
    expect((await send("DELETE", path, member.token)).status).toBe(403);
    const edited = await send("PATCH", path, admin.token, { costCents: 1400, kind: "parking", note: null });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id, costCents: 1400, kind: "parking", note: null, date: "2026-11-20" });
    expect((await listed(viewer.token, `vehicleId=${vehicleId}`)).map((e) => e.costCents)).toEqual([1400]);
    expect((await send("DELETE", path, a.token)).status).toBe(204);
    expect(await listed(viewer.token, "")).toEqual([]);
    expect((await rowsOf(a.workspaceId))[0]).toMatchObject({ id, deleted: true });
    expect((await send("DELETE", path, a.token)).status).toBe(404);
  });

  it("answers another workspace's vehicle, expense and photo with 404 and never lists its expenses", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const theirExpense = (await (await post(b.token, toll(theirs))).json()) as Expense;
    const theirPhoto = crypto.randomUUID();
    await database(env.DB)
      .insert(photos)
      .values({ id: theirPhoto, workspaceId: b.workspaceId, contentType: "image/png", size: 10 });

    expect((await post(a.token, toll(theirs))).status).toBe(404);
    expect((await post(a.token, toll(mine, { photoIds: [theirPhoto] }))).status).toBe(404);
    expect((await call(`/api/expenses?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
    expect(await listed(a.token, "")).toEqual([]);
    const path = `/api/expenses/${theirExpense.id}`;
    expect((await send("PATCH", path, a.token, { costCents: 1 })).status).toBe(404);
    expect((await send("DELETE", path, a.token)).status).toBe(404);
    expect((await listed(b.token, "")).map((e) => e.costCents)).toEqual([1250]);
  });
});

describe("expenses through sync", () => {
  it("applies a member's offline expense as the REST route would and pulls it in its compact form", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const id = crypto.randomUUID();
    const date = dayAgo(1);
    const answer = await push(member.token, [
      { name: "addExpense", args: { id, vehicleId, date, kind: "repair", costCents: 25_000, note: "Windscreen" } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    expect(await row(id)).toMatchObject({ vehicleId, createdByUserId: member.userId, costCents: 25_000 });
    const value = putsOf((await pull(a.token)).patch).get(expenseKey(id)) as ExpenseWire;
    expect(value).toEqual({ v: vehicleId, d: date, k: 5, c: 25_000, n: "Windscreen" });
  });

  it("refuses another workspace's vehicle, a replayed id, a member's edit; an owner's delete reaches devices as a del", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const taken = await insertExpense(b.workspaceId, theirs, dayAgo(1));
    const args = { date: dayAgo(1), kind: "tolls", costCents: 100 };
    const stranger = crypto.randomUUID();
    await push(a.token, [
      { name: "addExpense", args: { id: stranger, vehicleId: theirs, ...args } },
      { name: "addExpense", args: { id: taken, vehicleId: mine, ...args } },
      { name: "updateExpense", args: { id: taken, costCents: 1 } },
    ]);
    expect(await row(stranger)).toBeUndefined();
    expect(await row(taken)).toMatchObject({ workspaceId: b.workspaceId, costCents: 300 });

    const id = await insertExpense(a.workspaceId, mine, dayAgo(2));
    const before = await pull(a.token);
    const refused = await push(member.token, [{ name: "deleteExpense", args: { id } }]);
    expect(refused.refused?.map((r) => r.name)).toEqual(["deleteExpense"]);
    await push(a.token, [{ name: "deleteExpense", args: { id } }]);
    expect((await pull(a.token, before.cookie)).patch).toContainEqual({ op: "del", key: expenseKey(id) });
  });

  it("carries the last 90 days in a first sync, and any change since the cookie whatever its date", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const recent = await insertExpense(a.workspaceId, vehicleId, dayAgo(89));
    const old = await insertExpense(a.workspaceId, vehicleId, dayAgo(92));
    const first = await pull(a.token);
    expect(putsOf(first.patch).has(expenseKey(recent))).toBe(true);
    expect(putsOf(first.patch).has(expenseKey(old))).toBe(false);
    const late = await insertExpense(a.workspaceId, vehicleId, dayAgo(300));
    expect(putsOf((await pull(a.token, first.cookie)).patch).has(expenseKey(late))).toBe(true);
  });
});
