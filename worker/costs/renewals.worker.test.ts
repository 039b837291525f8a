import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { renewalKey, type Renewal } from "../../shared/costs/renewals";
import { addDays, dayOf } from "../../shared/units/time-zone";
import { database } from "../../db/client";
import { renewals } from "../../db/schema";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pushMutations as push, pullPatch } from "../test/sync";

/** Renewals over REST, in My actions and through sync (issue 42 part B, DESIGN.md "Fuel, costs and renewals", ADR 0049). */
const send = (method: string, path: string, token: string, json?: unknown) => call(path, { method, token, json });
const post = (token: string, json: unknown) => send("POST", "/api/renewals", token, json);
const created = async (token: string, json: unknown) => (await (await post(token, json)).json()) as Renewal;
const listed = async (token: string, query = "") =>
  ((await (await call(`/api/renewals?${query}`, { token })).json()) as { renewals: Renewal[] }).renewals;
const row = (id: string) => database(env.DB).select().from(renewals).where(eq(renewals.id, id)).get();
const today = () => dayOf(Date.now(), "UTC");
const inDays = (n: number) => addDays(today(), n);

const pull = (token: string, cookie: unknown = null) => pullPatch(token, cookie);

describe("renewals API", () => {
  it("answers each renewal's status today: ok, due soon within remindDaysBefore, overdue after the due day", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const res = await post(a.token, { vehicleId, kind: "registration", dueDate: inDays(20) });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      vehicleId,
      kind: "registration",
      remindDaysBefore: 30,
      status: "due_soon",
    });
    await post(a.token, { vehicleId, kind: "insurance", dueDate: inDays(21), remindDaysBefore: 10 });
    await post(a.token, { vehicleId, kind: "other", name: "Harbour pass", dueDate: inDays(-1) });
    const all = await listed(a.token, `vehicleId=${vehicleId}`);
    expect(all.map((r) => [r.kind, r.status])).toEqual([
      ["other", "overdue"],
      ["registration", "due_soon"],
      ["insurance", "ok"],
    ]);
    expect(all[0]).toMatchObject({ name: "Harbour pass" });
  });

  it("renewing moves the due date, records when, and the status follows", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const { id } = await created(a.token, { vehicleId, kind: "emissions", dueDate: inDays(-3) });
    const res = await send("POST", `/api/renewals/${id}/renew`, member.token, { dueDate: inDays(365) });
    expect(res.status).toBe(200);
    const renewed = (await res.json()) as Renewal;
    expect(renewed).toMatchObject({ id, dueDate: inDays(365), status: "ok" });
    expect(renewed.renewedAt).not.toBeNull();
  });

  it("refuses bad input with 400 naming the field, and writes nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    for (const [json, field] of [
      [{ vehicleId, kind: "licence", dueDate: inDays(5) }, "kind"],
      [{ vehicleId, kind: "permit", dueDate: "2027-13-01" }, "dueDate"],
      [{ vehicleId, kind: "permit" }, "dueDate"],
      [{ vehicleId, kind: "permit", dueDate: inDays(5), remindDaysBefore: -1 }, "remindDaysBefore"],
      [{ vehicleId, kind: "permit", dueDate: inDays(5), remindDaysBefore: 1.5 }, "remindDaysBefore"],
    ] as const) {
      const res = await post(a.token, json);
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { error: { fields: Record<string, string[]> } };
      expect(Object.keys(body.error.fields), JSON.stringify(json)).toContain(field);
    }
    const { id } = await created(a.token, { vehicleId, kind: "permit", dueDate: inDays(5) });
    const renew = await send("POST", `/api/renewals/${id}/renew`, a.token, { dueDate: "soon" });
    expect(renew.status).toBe(400);
    expect((await listed(a.token)).map((r) => r.dueDate)).toEqual([inDays(5)]);
  });

  it("lets owners and admins set up and delete, members renew, viewers only read", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const member = await memberWithRole(a.workspaceId, "member");
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const admin = await memberWithRole(a.workspaceId, "admin");
    const body = { vehicleId, kind: "insurance", dueDate: inDays(40) };
    expect((await post(member.token, body)).status).toBe(403);
    expect((await post(viewer.token, body)).status).toBe(403);
    const { id } = await created(admin.token, body);
    expect((await send("POST", `/api/renewals/${id}/renew`, viewer.token, { dueDate: inDays(400) })).status).toBe(403);
    expect((await send("DELETE", `/api/renewals/${id}`, member.token)).status).toBe(403);
    expect((await listed(viewer.token)).map((r) => r.id)).toEqual([id]);
    expect((await send("DELETE", `/api/renewals/${id}`, a.token)).status).toBe(204);
    expect(await listed(viewer.token)).toEqual([]);
    expect(await row(id)).toMatchObject({ deleted: true });
  });

  it("answers another workspace's vehicle and renewal with 404 and never lists or counts its renewals", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const their = await created(b.token, { vehicleId: theirs, kind: "registration", dueDate: inDays(1) });
    expect((await post(a.token, { vehicleId: theirs, kind: "registration", dueDate: inDays(1) })).status).toBe(404);
    expect((await call(`/api/renewals?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
    expect((await send("POST", `/api/renewals/${their.id}/renew`, a.token, { dueDate: inDays(9) })).status).toBe(404);
    expect((await send("DELETE", `/api/renewals/${their.id}`, a.token)).status).toBe(404);
    expect(await listed(a.token)).toEqual([]);
    const mine = (await (await call("/api/my-actions", { token: a.token })).json()) as { renewals: Renewal[] };
    expect(mine.renewals).toEqual([]);
    expect((await row(their.id))?.dueDate).toBe(inDays(1));
  });
});

describe("renewals in My actions and through sync", () => {
  it("lists the due soon and overdue ones under renewals, overdue first, and not the ok ones", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const soon = await created(a.token, { vehicleId, kind: "registration", dueDate: inDays(3) });
    const late = await created(a.token, { vehicleId, kind: "permit", dueDate: inDays(-2) });
    await created(a.token, { vehicleId, kind: "insurance", dueDate: inDays(200) });
    const mine = (await (await call("/api/my-actions", { token: a.token })).json()) as { renewals: Renewal[] };
    expect(mine.renewals.map((r) => [r.id, r.status])).toEqual([
      [late.id, "overdue"],
      [soon.id, "due_soon"],
    ]);
  });

  it("applies an owner's offline renewal and a member's renew as the REST routes would; refuses a member's set-up", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const id = crypto.randomUUID();
    const first = await pull(a.token);
    await push(a.token, [{ name: "addRenewal", args: { id, vehicleId, kind: "insurance", dueDate: inDays(10) } }]);
    const added = await pull(a.token, first.cookie);
    expect(added.patch).toContainEqual({
      op: "put",
      key: renewalKey(id),
      value: { v: vehicleId, k: 1, d: inDays(10) },
    });
    await push(member.token, [{ name: "renewRenewal", args: { id, dueDate: inDays(375) } }]);
    expect(await row(id)).toMatchObject({ dueDate: inDays(375) });
    const refused = await push(member.token, [
      { name: "addRenewal", args: { id: crypto.randomUUID(), vehicleId, kind: "permit", dueDate: inDays(1) } },
      { name: "deleteRenewal", args: { id } },
    ]);
    expect(refused.refused?.map((r) => r.name)).toEqual(["addRenewal", "deleteRenewal"]);
    const before = await pull(a.token);
    await push(a.token, [{ name: "deleteRenewal", args: { id } }]);
    expect((await pull(a.token, before.cookie)).patch).toContainEqual({ op: "del", key: renewalKey(id) });
  });
});
