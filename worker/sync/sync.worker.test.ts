import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pullResponseSchema, SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { telemetryKey } from "../../shared/fleet/telemetry";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { vehicleEventKey } from "../../shared/fleet/vehicle-event";
import { database } from "../test/db";
import { telemetry, vehicleEvents, vehicles, workspaces } from "../../db/schema";
import type { SyncCookie } from "./cookie";
import { bumpVersion, versionOf } from "../test/db";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";

type Patch = { op: string; key?: string; value?: Record<string, unknown> };
interface PullOk {
  cookie: SyncCookie;
  lastMutationIDChanges: Record<string, number>;
  patch: Patch[];
}

/** Values as the client store reads them: decoded from the compact form (docs/decisions/0013). */
const decoded = (res: PullOk): PullOk => ({
  ...res,
  patch: res.patch.map((op) =>
    op.op === "put" ? { ...op, value: decodeSyncedValue(op.key!, op.value) as Patch["value"] } : op,
  ),
});

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
  return decoded(json as PullOk);
}

function pushBody(clientGroupID: string, clientID: string, mutations: { id: number; name?: string; args: unknown }[]) {
  return {
    pushVersion: 1,
    clientGroupID,
    profileID: "p1",
    schemaVersion: SCHEMA_VERSION,
    mutations: mutations.map((m) => ({
      clientID,
      id: m.id,
      name: m.name ?? "updateVehicle",
      args: m.args,
      timestamp: 1,
    })),
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
      {
        op: "put",
        key: vehicleKey(mine),
        value: expect.objectContaining({ id: mine, name: "Mine", classification: null }),
      },
    ]);
    const version = await workspaceVersion(a.workspaceId);
    expect(res.cookie).toEqual({ order: version, version, epoch: "", group: expect.any(String) });
  });

  it("sends only what changed since the cookie, and del for deleted rows", async () => {
    const a = await userWithWorkspace();
    const group = crypto.randomUUID();
    const kept = await insertVehicle(a.workspaceId, { name: "Kept" });
    const gone = await insertVehicle(a.workspaceId, { name: "Gone" });
    const first = await pull(a.token, group);
    expect(first.patch.map((p) => p.key ?? p.op).sort()).toEqual(["clear", vehicleKey(gone), vehicleKey(kept)].sort());
    const db = database(env.DB);
    await db.batch([
      db
        .update(workspaces)
        .set({ version: first.cookie.version + 1 })
        .where(eq(workspaces.id, a.workspaceId)),
      db
        .update(vehicles)
        .set({ deleted: true, version: first.cookie.version + 1 })
        .where(eq(vehicles.id, gone)),
    ]);
    const next = await pull(a.token, group, first.cookie);
    expect(next.patch).toEqual([{ op: "del", key: vehicleKey(gone) }]);
    expect(next.cookie).toEqual({ ...first.cookie, order: first.cookie.order + 1, version: first.cookie.version + 1 });
    const again = await pull(a.token, group, next.cookie);
    expect(again.patch).toEqual([]);
    // The vehicle left alone is still there for a client starting now; the deleted one is not.
    expect((await pull(a.token, crypto.randomUUID())).patch).toEqual([
      { op: "clear" },
      { op: "put", key: vehicleKey(kept), value: expect.objectContaining({ id: kept, name: "Kept" }) },
    ]);
  });

  it("refuses a client group that belongs to another user", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const group = crypto.randomUUID();
    await pull(a.token, group);
    const res = await call("/api/sync/pull", { method: "POST", token: b.token, json: pullBody(group) });
    expect(res.status).toBe(403);
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
    await push(
      a.token,
      pushBody(group, client, [
        { id: 1, args: rename(id, "First") },
        { id: 2, args: rename(id, "Second") },
      ]),
    );
    expect(await vehicleName(id)).toBe("Second");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 2 });
  });

  it("refuses invalid arguments without blocking the client's later mutations", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(
      a.token,
      pushBody(group, client, [
        { id: 1, args: { ...rename(id, ""), vin: "bad" } },
        { id: 2, name: "noSuchMutation", args: {} },
        { id: 3, args: rename(id, "Valid") },
      ]),
    );
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
    expect(next.patch).toEqual([
      { op: "put", key: vehicleKey(id), value: expect.objectContaining({ name: "Seen", year: 2020 }) },
    ]);
    expect(next.lastMutationIDChanges).toEqual({});
  });
});

type ErrorBody = { error: { code: string; message: string } };

/** Telemetry and a timeline event for a vehicle, written like ingestion writes them. */
async function insertTrack(workspaceId: string, vehicleId: string) {
  const db = database(env.DB);
  const eventId = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(telemetry).values({
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId,
      status: "moving",
      statusTimestamp: 1,
      latitude: 40,
      longitude: -100,
      recordedAt: 1,
      version: versionOf(workspaceId),
    }),
    db
      .insert(vehicleEvents)
      .values({ id: eventId, workspaceId, vehicleId, type: "TRANSIT", startTime: 1, version: versionOf(workspaceId) }),
  ]);
  return eventId;
}

const vehicleRow = async (id: string) =>
  (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, id)).get())!;

describe("pull, tenant isolation and protocol", () => {
  it("never carries another workspace's vehicles, telemetry or events, first or incremental", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await insertVehicle(a.workspaceId);
    const mineEvent = await insertTrack(a.workspaceId, mine);
    const theirs = await insertVehicle(b.workspaceId);
    await insertTrack(b.workspaceId, theirs);
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    expect(first.patch.map((p) => p.key ?? p.op).sort()).toEqual(
      ["clear", vehicleKey(mine), telemetryKey(mine), vehicleEventKey(mine, mineEvent)].sort(),
    );
    // Workspace b keeps changing; a's next pulls stay empty.
    await insertTrack(b.workspaceId, await insertVehicle(b.workspaceId));
    await push(
      b.token,
      pushBody(crypto.randomUUID(), crypto.randomUUID(), [{ id: 1, args: rename(theirs, "Changed") }]),
    );
    expect((await pull(a.token, group, first.cookie)).patch).toEqual([]);
    // Even a cookie of 0 (everything) only reaches into the caller's own workspace.
    const zero = await pull(a.token, group, 0);
    expect(
      zero.patch.every(
        (p) => !p.key || [vehicleKey(mine), telemetryKey(mine), vehicleEventKey(mine, mineEvent)].includes(p.key),
      ),
    ).toBe(true);
  });

  it("sends del for a soft-deleted timeline event, and nothing for rows deleted before the client's first pull", async () => {
    const a = await userWithWorkspace();
    const vehicle = await insertVehicle(a.workspaceId);
    const event = await insertTrack(a.workspaceId, vehicle);
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    const db = database(env.DB);
    await db.batch([
      bumpVersion(db, a.workspaceId),
      db
        .update(vehicleEvents)
        .set({ deleted: true, version: versionOf(a.workspaceId) })
        .where(eq(vehicleEvents.id, event)),
    ]);
    expect((await pull(a.token, group, first.cookie)).patch).toEqual([
      { op: "del", key: vehicleEventKey(vehicle, event) },
    ]);
    const fresh = await pull(a.token, crypto.randomUUID());
    expect(fresh.patch.some((p) => p.op === "del" || p.key === vehicleEventKey(vehicle, event))).toBe(false);
  });

  it("answers VersionNotSupported with the version type for pull, push and schema", async () => {
    const a = await userWithWorkspace();
    const group = crypto.randomUUID();
    const answer = async (path: string, json: unknown) => {
      const res = await call(path, { method: "POST", token: a.token, json });
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await answer("/api/sync/pull", { ...pullBody(group), pullVersion: 0 })).toEqual({
      error: "VersionNotSupported",
      versionType: "pull",
    });
    expect(await answer("/api/sync/pull", { ...pullBody(group), schemaVersion: "0" })).toEqual({
      error: "VersionNotSupported",
      versionType: "schema",
    });
    expect(await answer("/api/sync/push", { ...pushBody(group, "c", []), pushVersion: 2 })).toEqual({
      error: "VersionNotSupported",
      versionType: "push",
    });
    // A schema from a build newer than this Worker (older ones may still push: sync-lifetime tests).
    const newer = String(Number(SCHEMA_VERSION) + 1);
    expect(await answer("/api/sync/push", { ...pushBody(group, "c", []), schemaVersion: newer })).toEqual({
      error: "VersionNotSupported",
      versionType: "schema",
    });
  });

  it("answers malformed pull and push bodies with 400 JSON errors", async () => {
    const a = await userWithWorkspace();
    const bodies: [string, unknown][] = [
      ["/api/sync/pull", {}],
      ["/api/sync/pull", { ...pullBody("g"), clientGroupID: "" }],
      ["/api/sync/pull", { ...pullBody("g"), cookie: [1] }],
      ["/api/sync/pull", { ...pullBody("g"), cookie: { order: true } }],
      ["/api/sync/pull", [pullBody("g")]],
      ["/api/sync/push", { ...pushBody("g", "c", []), mutations: "none" }],
      ["/api/sync/push", pushBody("g", "c", [{ id: 0, args: {} }])],
      ["/api/sync/push", pushBody("g", "c", [{ id: 1.5, args: {} }])],
      ["/api/sync/push", { ...pushBody("g", "c", []), mutations: [{ id: 1, name: "updateVehicle", args: {} }] }],
      ["/api/sync/push", null],
    ];
    for (const [path, json] of bodies) {
      const res = await call(path, { method: "POST", token: a.token, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).toMatch(/^(bad_request|invalid_input)$/);
      expect(typeof body.error.message).toBe("string");
    }
    for (const cookie of [{ order: true }, { nope: 1 }]) {
      const res = await call("/api/sync/pull", { method: "POST", token: a.token, json: { ...pullBody("g"), cookie } });
      expect(((await res.json()) as ErrorBody).error.message).toContain("Invalid cookie");
    }
    for (const path of ["/api/sync/pull", "/api/sync/push"]) {
      const garbage = await call(path, {
        method: "POST",
        token: a.token,
        body: "not json",
        headers: { "Content-Type": "application/json" },
      });
      expect(garbage.status).toBe(400);
      expect(((await garbage.json()) as ErrorBody).error.code).toMatch(/^(bad_request|invalid_input)$/);
    }
    expect((await call("/api/sync/pull", { method: "POST", json: pullBody("g") })).status).toBe(401);
  });
});

describe("push, under replays and races", () => {
  it("applies concurrent duplicate requests once, without a server error", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const before = await workspaceVersion(a.workspaceId);
    const body = pushBody(group, client, [
      { id: 1, args: rename(id, "Once") },
      { id: 2, args: rename(id, "Twice") },
    ]);
    const answers = await Promise.all([push(a.token, body), push(a.token, body), push(a.token, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    // Each mutation is one version; duplicates that lost a race added none.
    expect(await workspaceVersion(a.workspaceId)).toBe(before + 2);
    expect(await vehicleName(id)).toBe("Twice");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 2 });
  });

  it("stops at a gap inside one request and resumes when the client resends in order", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(
      a.token,
      pushBody(group, client, [
        { id: 1, args: rename(id, "One") },
        { id: 3, args: rename(id, "Three") },
        { id: 2, args: rename(id, "Two") },
      ]),
    );
    expect(await vehicleName(id)).toBe("One");
    // An older request arriving late changes nothing.
    await push(a.token, pushBody(group, client, [{ id: 1, args: rename(id, "Stale") }]));
    expect(await vehicleName(id)).toBe("One");
    await push(
      a.token,
      pushBody(group, client, [
        { id: 2, args: rename(id, "Two") },
        { id: 3, args: rename(id, "Three") },
      ]),
    );
    expect(await vehicleName(id)).toBe("Three");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 3 });
  });

  it("records only the last mutation id for a refused mutation: the vehicle row is untouched", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before", year: 2001 });
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const other = crypto.randomUUID();
    const seen = await pull(a.token, other);
    const rowBefore = await vehicleRow(id);
    await push(a.token, pushBody(group, client, [{ id: 1, args: { ...rename(id, "After"), year: 1800 } }]));
    expect(await vehicleRow(id)).toEqual(rowBefore);
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 1 });
    // Other clients learn of nothing.
    expect((await pull(a.token, other, seen.cookie)).patch).toEqual([]);
  });

  it("cannot touch another workspace's vehicle: it stays exactly as it was, its clients see no change, the mutation counts as processed", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { name: "Theirs" });
    const bGroup = crypto.randomUUID();
    const bSeen = await pull(b.token, bGroup);
    const rowBefore = await vehicleRow(theirs);
    const versionBefore = await workspaceVersion(b.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(a.token, pushBody(group, client, [{ id: 1, args: rename(theirs, "Hijacked") }]));
    expect(await vehicleRow(theirs)).toEqual(rowBefore);
    expect(await workspaceVersion(b.workspaceId)).toBe(versionBefore);
    expect(await pull(b.token, bGroup, bSeen.cookie)).toEqual({
      cookie: bSeen.cookie,
      lastMutationIDChanges: {},
      patch: [],
    });
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 1 });
  });

  it("ignores mutations of a client that belongs to another client group", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const client = crypto.randomUUID();
    await push(a.token, pushBody(crypto.randomUUID(), client, [{ id: 1, args: rename(id, "Owner") }]));
    const res = await push(a.token, pushBody(crypto.randomUUID(), client, [{ id: 2, args: rename(id, "Impostor") }]));
    expect(res.status).toBe(200);
    expect(await vehicleName(id)).toBe("Owner");
  });

  it("refuses a client group of another user with 403 JSON and applies nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const id = await insertVehicle(b.workspaceId, { name: "Theirs" });
    const group = crypto.randomUUID();
    await pull(b.token, group);
    const res = await push(a.token, pushBody(group, crypto.randomUUID(), [{ id: 1, args: rename(id, "Hijacked") }]));
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error.code).toBe("forbidden");
    expect(await vehicleName(id)).toBe("Theirs");
  });
});
