import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pullResponseSchema, SCHEMA_VERSION } from "../../shared/sync-protocol";
import { vehicleKey } from "../../shared/vehicle";
import { database } from "../db/client";
import { vehicles, workspaces } from "../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";

type Patch = { op: string; key?: string; value?: Record<string, unknown> };
interface PullOk {
  cookie: number;
  lastMutationIDChanges: Record<string, number>;
  patch: Patch[];
}

const pullBody = (clientGroupID: string, cookie: unknown = null) => ({
  pullVersion: 1,
  clientGroupID,
  cookie,
  profileID: "p1",
  schemaVersion: SCHEMA_VERSION,
});

async function pull(token: string, clientGroupID: string, cookie: unknown = null) {
  const res = await call("/api/sync/pull", { method: "POST", token, json: pullBody(clientGroupID, cookie) });
  expect(res.status).toBe(200);
  const json = await res.json();
  pullResponseSchema.parse(json); // what the server sends is what the client accepts
  return json as PullOk;
}

function pushBody(clientGroupID: string, clientID: string, mutations: { id: number; name?: string; args: unknown }[]) {
  return {
    pushVersion: 1,
    clientGroupID,
    profileID: "p1",
    schemaVersion: SCHEMA_VERSION,
    mutations: mutations.map((m) => ({ clientID, id: m.id, name: m.name ?? "updateVehicle", args: m.args, timestamp: 1 })),
  };
}

const push = (token: string, body: unknown) => call("/api/sync/push", { method: "POST", token, json: body });
const rename = (id: string, name: string) => ({ id, name, vin: null, year: 2020, make: "Ford", model: "Transit" });
const vehicleName = async (id: string) =>
  (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, id)).get())?.name;
const workspaceVersion = async (id: string) =>
  (await database(env.DB).select().from(workspaces).where(eq(workspaces.id, id)).get())!.version;

describe("pull", () => {
  it("sends everything of the caller's workspace on the first pull, and nothing of another", async () => {
    const a = await userWithWorkspace("a");
    const b = await userWithWorkspace("b");
    const mine = await insertVehicle(a.workspaceId, { name: "Mine" });
    await insertVehicle(b.workspaceId, { name: "Theirs" });
    const res = await pull(a.token, crypto.randomUUID());
    expect(res.patch[0]).toEqual({ op: "clear" });
    expect(res.patch.slice(1)).toEqual([
      { op: "put", key: vehicleKey(mine), value: expect.objectContaining({ id: mine, name: "Mine", classification: null }) },
    ]);
    expect(res.cookie).toBe(await workspaceVersion(a.workspaceId));
  });

  it("sends only what changed since the cookie, and del for deleted rows", async () => {
    const a = await userWithWorkspace();
    const group = crypto.randomUUID();
    const kept = await insertVehicle(a.workspaceId, { name: "Kept" });
    const gone = await insertVehicle(a.workspaceId, { name: "Gone" });
    const first = await pull(a.token, group);
    const db = database(env.DB);
    await db.batch([
      db.update(workspaces).set({ version: first.cookie + 1 }).where(eq(workspaces.id, a.workspaceId)),
      db.update(vehicles).set({ deleted: true, version: first.cookie + 1 }).where(eq(vehicles.id, gone)),
    ]);
    const next = await pull(a.token, group, first.cookie);
    expect(next.patch).toEqual([{ op: "del", key: vehicleKey(gone) }]);
    expect(next.cookie).toBe(first.cookie + 1);
    const again = await pull(a.token, group, next.cookie);
    expect(again.patch).toEqual([]);
    expect(kept).toBeTruthy();
  });

  it("answers ClientStateNotFound for a cookie from a client group it never served", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/sync/pull", { method: "POST", token: a.token, json: pullBody(crypto.randomUUID(), 5) });
    expect(await res.json()).toEqual({ error: "ClientStateNotFound" });
  });

  it("answers VersionNotSupported for another schema", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/sync/pull", {
      method: "POST",
      token: a.token,
      json: { ...pullBody(crypto.randomUUID()), schemaVersion: "0" },
    });
    expect(await res.json()).toEqual({ error: "VersionNotSupported", versionType: "schema" });
  });

  it("refuses a client group that belongs to another user", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const group = crypto.randomUUID();
    await pull(a.token, group);
    const res = await call("/api/sync/pull", { method: "POST", token: b.token, json: pullBody(group) });
    expect(res.status).toBe(403);
  });

  it("rejects malformed requests with 4xx JSON", async () => {
    const a = await userWithWorkspace();
    const bad = await call("/api/sync/pull", { method: "POST", token: a.token, json: { ...pullBody("g"), cookie: { nope: 1 } } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("Invalid cookie");
    const garbage = await call("/api/sync/push", { method: "POST", token: a.token, body: "not json", headers: { "Content-Type": "application/json" } });
    expect(garbage.status).toBe(400);
    const unauthenticated = await call("/api/sync/pull", { method: "POST", json: pullBody("g") });
    expect(unauthenticated.status).toBe(401);
  });
});

describe("push", () => {
  it("applies a mutation once, however often it is replayed", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const body = pushBody(group, client, [{ id: 1, args: rename(id, "Renamed") }]);
    expect((await push(a.token, body)).status).toBe(200);
    const version = await workspaceVersion(a.workspaceId);
    await push(a.token, body);
    await push(a.token, body);
    expect(await vehicleName(id)).toBe("Renamed");
    expect(await workspaceVersion(a.workspaceId)).toBe(version);
    const res = await pull(a.token, group);
    expect(res.lastMutationIDChanges).toEqual({ [client]: 1 });
  });

  it("skips mutations from the future and applies them once the gap is filled", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(a.token, pushBody(group, client, [{ id: 2, args: rename(id, "Second") }]));
    expect(await vehicleName(id)).toBe("Truck");
    await push(a.token, pushBody(group, client, [{ id: 1, args: rename(id, "First") }, { id: 2, args: rename(id, "Second") }]));
    expect(await vehicleName(id)).toBe("Second");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 2 });
  });

  it("cannot touch another workspace's vehicle, and still counts the mutation as processed", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { name: "Theirs" });
    const before = await workspaceVersion(b.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(a.token, pushBody(group, client, [{ id: 1, args: rename(theirs, "Hijacked") }]));
    expect(await vehicleName(theirs)).toBe("Theirs");
    expect(await workspaceVersion(b.workspaceId)).toBe(before);
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 1 });
  });

  it("refuses invalid arguments without blocking the client's later mutations", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(a.token, pushBody(group, client, [
      { id: 1, args: { ...rename(id, ""), vin: "bad" } },
      { id: 2, name: "noSuchMutation", args: {} },
      { id: 3, args: rename(id, "Valid") },
    ]));
    expect(await vehicleName(id)).toBe("Valid");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 3 });
  });

  it("makes the change visible to other clients of the workspace in their next pull", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const other = crypto.randomUUID();
    const client = crypto.randomUUID();
    const first = await pull(a.token, other);
    await push(a.token, pushBody(crypto.randomUUID(), client, [{ id: 1, args: rename(id, "Seen") }]));
    const next = await pull(a.token, other, first.cookie);
    expect(next.patch).toEqual([{ op: "put", key: vehicleKey(id), value: expect.objectContaining({ name: "Seen", year: 2020 }) }]);
    expect(next.lastMutationIDChanges).toEqual({});
  });
});
