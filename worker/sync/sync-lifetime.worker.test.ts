import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pullResponseSchema, SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { vehicleEventKey } from "../../shared/fleet/vehicle-event";
import { database } from "../test/db";
import { syncCheckpoints, vehicleEvents, vehicles, workspaces } from "../../db/schema";
import worker from "../test-entry";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import type { SyncCookie } from "./cookie";
import { MAX_MUTATIONS_PER_PUSH } from "./push";
import { announceWrites } from "../workspace-object";
import { collectTombstones, TOMBSTONE_HORIZON_MS } from "./tombstones";
import { bumpVersion, versionOf } from "../test/db";

/**
 * Sync over the app's lifetime (issue 10, docs/decisions/0003-sync.md): deploys that fork client
 * groups, D1 restores, old schemas, weeks offline. Request bodies are shaped exactly as Replicache
 * 15 sends them (pullVersion/pushVersion 1, profileID, clientGroupID, schemaVersion, cookie as last
 * received; mutations with clientID, id, name, args, timestamp).
 */
type Patch = { op: string; key?: string; value?: Record<string, unknown> };
type PullOk = { cookie: SyncCookie; lastMutationIDChanges: Record<string, number>; patch: Patch[] };

const profileID = "p" + crypto.randomUUID().replaceAll("-", "").slice(0, 20);
const pullBody = (clientGroupID: string, cookie: unknown, schemaVersion = SCHEMA_VERSION) => ({
  profileID,
  clientGroupID,
  cookie,
  pullVersion: 1,
  schemaVersion,
});
const pushBody = (
  clientGroupID: string,
  clientID: string,
  mutations: { id: number; name?: string; args: unknown }[],
  schemaVersion = SCHEMA_VERSION,
) => ({
  profileID,
  clientGroupID,
  mutations: mutations.map((m) => ({
    id: m.id,
    clientID,
    name: m.name ?? "updateVehicle",
    args: m.args,
    timestamp: 1_700_000_000_000 + m.id,
  })),
  pushVersion: 1,
  schemaVersion,
});

async function pullRaw(token: string, body: unknown) {
  const res = await call("/api/sync/pull", { method: "POST", token, json: body });
  return { status: res.status, json: (await res.json()) as unknown };
}
async function pull(token: string, clientGroupID: string, cookie: unknown = null): Promise<PullOk> {
  const { status, json } = await pullRaw(token, pullBody(clientGroupID, cookie));
  expect(status).toBe(200);
  pullResponseSchema.parse(json); // what the server sends is what Replicache accepts
  expect(json).toHaveProperty("patch");
  return decoded(json as PullOk);
}
/** Values as the client store reads them: decoded from the compact form (docs/decisions/0013). */
const decoded = (res: PullOk): PullOk => ({
  ...res,
  patch: res.patch.map((op) =>
    op.op === "put" ? { ...op, value: decodeSyncedValue(op.key!, op.value) as Patch["value"] } : op,
  ),
});
const push = async (token: string, body: unknown) => {
  const res = await call("/api/sync/push", { method: "POST", token, json: body });
  return { status: res.status, json: (await res.json()) as unknown };
};
const rename = (id: string, name: string) => ({ id, name, vin: null, year: 2020, make: "Ford", model: "Transit" });
const db = () => database(env.DB);
const vehicleName = async (id: string) => (await db().select().from(vehicles).where(eq(vehicles.id, id)).get())?.name;

/** What Replicache does with a pull answer: apply the patch to the client's view. */
function apply(view: Map<string, unknown>, patch: Patch[]) {
  for (const op of patch) {
    if (op.op === "clear") view.clear();
    else if (op.op === "put") view.set(op.key!, op.value);
    else if (op.op === "del") view.delete(op.key!);
  }
  return view;
}
/** Replicache refuses an answer whose cookie orders below the one it holds. */
const ordersAbove = (next: SyncCookie, previous: SyncCookie) => next.order > previous.order;

async function insertEvent(workspaceId: string, vehicleId: string) {
  const id = crypto.randomUUID();
  await db().batch([
    bumpVersion(db(), workspaceId),
    db()
      .insert(vehicleEvents)
      .values({ id, workspaceId, vehicleId, type: "STOP", startTime: 1, version: versionOf(workspaceId) }),
  ]);
  return id;
}
async function deleteEvent(workspaceId: string, id: string) {
  await db().batch([
    bumpVersion(db(), workspaceId),
    db()
      .update(vehicleEvents)
      .set({ deleted: true, version: versionOf(workspaceId) })
      .where(eq(vehicleEvents.id, id)),
  ]);
}

describe("a deploy that adds a mutator (Replicache forks the client group)", () => {
  it("serves a new client group carrying another group's cookie incrementally, never ClientStateNotFound", async () => {
    const a = await userWithWorkspace();
    const kept = await insertVehicle(a.workspaceId, { name: "Kept" });
    const old = crypto.randomUUID();
    const first = await pull(a.token, old);
    const changed = await insertVehicle(a.workspaceId, { name: "New" });

    const fork = crypto.randomUUID();
    const answer = await pull(a.token, fork, first.cookie);
    expect(answer.patch).toEqual([
      { op: "put", key: vehicleKey(changed), value: expect.objectContaining({ name: "New" }) },
    ]);
    expect(ordersAbove(answer.cookie, first.cookie)).toBe(true);
    // The fork's view is now what a fresh pull gives.
    const view = apply(apply(new Map(), first.patch), answer.patch);
    expect([...view.keys()].sort()).toEqual([vehicleKey(kept), vehicleKey(changed)].sort());
  });

  it("keeps an edit made in the fork even when the fork's pull reaches the server before its push", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before" });
    const first = await pull(a.token, crypto.randomUUID());
    const fork = crypto.randomUUID();
    const client = crypto.randomUUID();
    const forkPull = await pull(a.token, fork, first.cookie);
    expect(forkPull.patch).toEqual([]);
    expect(
      (await push(a.token, pushBody(fork, client, [{ id: 1, args: rename(id, "Edited in the fork") }]))).status,
    ).toBe(200);
    expect(await vehicleName(id)).toBe("Edited in the fork");
    const after = await pull(a.token, fork, forkPull.cookie);
    expect(after.lastMutationIDChanges).toEqual({ [client]: 1 });
  });

  it("accepts a bare-number cookie from before cookies were objects", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId);
    const version = (await pull(a.token, crypto.randomUUID())).cookie.version;
    const added = await insertVehicle(a.workspaceId, { name: "Later" });
    const answer = await pull(a.token, crypto.randomUUID(), version);
    expect(answer.patch).toEqual([
      { op: "put", key: vehicleKey(added), value: expect.objectContaining({ name: "Later" }) },
    ]);
    expect(answer.cookie.order).toBeGreaterThan(version);
  });
});

describe("claiming a brand-new client group", () => {
  it("serves only one of two users presenting the same new id at the same moment", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await userWithWorkspace();
      const b = await userWithWorkspace();
      const group = crypto.randomUUID();
      const answers = await Promise.all([
        pullRaw(a.token, pullBody(group, null)),
        pullRaw(b.token, pullBody(group, null)),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
    }
  });

  it("refuses the other user's push to a group claimed by a concurrent pull", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { name: "Theirs" });
    const group = crypto.randomUUID();
    const [pulled, pushed] = await Promise.all([
      pullRaw(b.token, pullBody(group, null)),
      push(a.token, pushBody(group, crypto.randomUUID(), [{ id: 1, args: rename(theirs, "Hijacked") }])),
    ]);
    expect([pulled.status, pushed.status].sort()).toEqual([200, 403]);
    expect(await vehicleName(theirs)).toBe("Theirs");
  });
});

describe("a cookie the server cannot diff from gets a full reset ordered above it", () => {
  it("after a restore to an earlier point: reset, then the client converges with the next pulls", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Restored" });
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const first = await pull(a.token, group);
    // The client saw versions this database no longer has (restored from a backup).
    const ahead: SyncCookie = { ...first.cookie, order: first.cookie.order + 40, version: first.cookie.version + 40 };
    const reset = await pull(a.token, group, ahead);
    expect(reset.patch[0]).toEqual({ op: "clear" });
    expect(reset.patch).toContainEqual({
      op: "put",
      key: vehicleKey(id),
      value: expect.objectContaining({ name: "Restored" }),
    });
    expect(ordersAbove(reset.cookie, ahead)).toBe(true);
    // Its last mutation ids may be above the server's: none are sent (Replicache refuses a lower one)…
    expect(reset.lastMutationIDChanges).toEqual({});
    // …and its pending mutations, numbered after ones the server lost, are applied.
    expect(
      (
        await push(
          a.token,
          pushBody(group, client, [
            { id: 12, args: rename(id, "Edited offline") },
            { id: 13, args: rename(id, "Again") },
          ]),
        )
      ).status,
    ).toBe(200);
    expect(await vehicleName(id)).toBe("Again");

    const view = apply(new Map(), reset.patch);
    const next = await pull(a.token, group, reset.cookie);
    expect(next.patch[0]).not.toEqual({ op: "clear" });
    expect(ordersAbove(next.cookie, reset.cookie)).toBe(true);
    expect(next.lastMutationIDChanges).toEqual({ [client]: 13 });
    apply(view, next.patch);
    const fresh = apply(new Map(), (await pull(a.token, crypto.randomUUID())).patch);
    expect(view).toEqual(fresh);
  });

  it("after a restore: pending mutations the restored server had already processed are reported done", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    await push(
      a.token,
      pushBody(group, client, [
        { id: 1, args: rename(id, "One") },
        { id: 2, args: rename(id, "Two") },
      ]),
    );
    const seen = await pull(a.token, group);
    expect(seen.lastMutationIDChanges).toEqual({ [client]: 2 });
    // The client heard of 2 before a restore; it still holds 3 and 4 as pending, which the server
    // had processed at the restored point, and then its cookie is ahead.
    await push(
      a.token,
      pushBody(group, client, [
        { id: 3, args: rename(id, "Three") },
        { id: 4, args: rename(id, "Four") },
      ]),
    );
    const ahead: SyncCookie = { ...seen.cookie, order: seen.cookie.order + 50, version: seen.cookie.version + 50 };
    const reset = await pull(a.token, group, ahead);
    expect(reset.lastMutationIDChanges).toEqual({});
    expect(
      (
        await push(
          a.token,
          pushBody(group, client, [
            { id: 3, args: rename(id, "Three") },
            { id: 4, args: rename(id, "Four") },
          ]),
        )
      ).status,
    ).toBe(200);
    expect((await pull(a.token, group, reset.cookie)).lastMutationIDChanges).toEqual({ [client]: 4 });
    expect(await vehicleName(id)).toBe("Four");
  });

  it("after a restore whose new writes already passed the client's version: the rotated epoch resets it", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "One" });
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    // Restore to before `first`, then more writes than the client ever saw, then the operator's
    // post-restore step (docs/operations.md): a new sync epoch.
    await db().update(workspaces).set({ version: 1, syncEpoch: "" }).where(eq(workspaces.id, a.workspaceId));
    for (let i = 0; i < first.cookie.version + 3; i++)
      await insertVehicle(a.workspaceId, { name: `After restore ${i}` });
    await db().update(workspaces).set({ syncEpoch: "restored-1" }).where(eq(workspaces.id, a.workspaceId));
    const reset = await pull(a.token, group, first.cookie);
    expect(reset.patch[0]).toEqual({ op: "clear" });
    expect(ordersAbove(reset.cookie, first.cookie)).toBe(true);
    expect(reset.cookie.epoch).toBe("restored-1");
    expect(reset.patch.filter((p) => p.op === "put")).toHaveLength(first.cookie.version + 4);
    expect(reset.patch).toContainEqual({
      op: "put",
      key: vehicleKey(id),
      value: expect.objectContaining({ name: "One" }),
    });
    const again = await pull(a.token, group, reset.cookie);
    expect(again).toEqual({ cookie: reset.cookie, lastMutationIDChanges: {}, patch: [] });
  });

  it("resets a cookie that is not ours (a string, or an object without our fields)", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId);
    for (const cookie of ["opaque", { order: 7 }, { order: 5, version: 9, epoch: "" }]) {
      const answer = await pull(a.token, crypto.randomUUID(), cookie);
      expect(answer.patch[0]).toEqual({ op: "clear" });
      if (typeof cookie === "object") expect(answer.cookie.order).toBeGreaterThan(cookie.order);
    }
  });
});

describe("push: any backlog makes progress, and old builds' edits arrive", () => {
  it("applies 1,001 pending mutations a bounded prefix per request, in order, as Replicache resends them", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const pending = Array.from({ length: 1001 }, (_, i) => ({ id: i + 1, args: rename(id, `Edit ${i + 1}`) }));
    let confirmed = 0;
    let cookie: unknown = null;
    let rounds = 0;
    while (confirmed < 1001) {
      rounds++;
      expect(rounds).toBeLessThanOrEqual(Math.ceil(1001 / MAX_MUTATIONS_PER_PUSH));
      // Replicache pushes every mutation not yet confirmed by a pull.
      const res = await push(
        a.token,
        pushBody(
          group,
          client,
          pending.filter((m) => m.id > confirmed),
        ),
      );
      expect(res.status).toBe(200);
      const answer = await pull(a.token, group, cookie);
      cookie = answer.cookie;
      const next = answer.lastMutationIDChanges[client];
      expect(next).toBeGreaterThan(confirmed);
      confirmed = next!;
      expect(await vehicleName(id)).toBe(`Edit ${confirmed}`);
    }
    expect(confirmed).toBe(1001);
  }, 60_000);

  it("records a mutation whose write fails without its effects (error mode), and applies the next", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before" });
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    // A write the database refuses whatever the retries (as a constraint would).
    await env.DB.exec(
      `CREATE TRIGGER IF NOT EXISTS refuse_doomed BEFORE UPDATE ON vehicles WHEN NEW.name = 'Doomed' BEGIN SELECT RAISE(ABORT, 'refused by a constraint'); END`,
    );
    const res = await push(
      a.token,
      pushBody(group, client, [
        { id: 1, args: rename(id, "Doomed") },
        { id: 2, args: rename(id, "Fine") },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await vehicleName(id)).toBe("Fine");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 2 });
  });

  it("applies an older schema version's mutations whose arguments still parse, and refuses the others", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before" });
    const group = crypto.randomUUID();
    const client = crypto.randomUUID();
    const older = String(Number(SCHEMA_VERSION) - 1);
    const res = await push(
      a.token,
      pushBody(
        group,
        client,
        [
          { id: 1, args: rename(id, "From yesterday's build") },
          { id: 2, args: { id, label: "an argument shape that no longer exists" } },
        ],
        older,
      ),
    );
    // the one that no longer parses is refused where the browser shows it (issue 39)
    expect(res).toEqual({
      status: 200,
      json: { refused: [expect.objectContaining({ clientID: client, id: 2, message: expect.any(String) })] },
    });
    expect(await vehicleName(id)).toBe("From yesterday's build");
    expect((await pull(a.token, group)).lastMutationIDChanges).toEqual({ [client]: 2 });
    // An older build's pull is told to update: it would not understand today's values.
    expect(await pullRaw(a.token, pullBody(group, null, older))).toEqual({
      status: 200,
      json: { error: "VersionNotSupported", versionType: "schema" },
    });
    // A schema from the future, or not a version at all, is not ours.
    for (const schemaVersion of [String(Number(SCHEMA_VERSION) + 1), "beta"]) {
      expect(await push(a.token, pushBody(group, client, [], schemaVersion))).toEqual({
        status: 200,
        json: { error: "VersionNotSupported", versionType: "schema" },
      });
    }
  });

  it("answers protocol version 0 bodies (their own shape) with VersionNotSupported, not 400", async () => {
    const a = await userWithWorkspace();
    const pullV0 = {
      profileID,
      clientID: crypto.randomUUID(),
      cookie: null,
      lastMutationID: 0,
      pullVersion: 0,
      schemaVersion: SCHEMA_VERSION,
    };
    expect(await pullRaw(a.token, pullV0)).toEqual({
      status: 200,
      json: { error: "VersionNotSupported", versionType: "pull" },
    });
    const pushV0 = {
      profileID,
      clientID: crypto.randomUUID(),
      mutations: [{ id: 1, name: "updateVehicle", args: {}, timestamp: 1 }],
      pushVersion: 0,
      schemaVersion: SCHEMA_VERSION,
    };
    expect(await push(a.token, pushV0)).toEqual({
      status: 200,
      json: { error: "VersionNotSupported", versionType: "push" },
    });
  });
});

describe("tombstones", () => {
  it("sends del only for rows the client can hold: created at or before its cookie", async () => {
    const a = await userWithWorkspace();
    const vehicle = await insertVehicle(a.workspaceId);
    const held = await insertEvent(a.workspaceId, vehicle);
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    const never = await insertEvent(a.workspaceId, vehicle);
    await deleteEvent(a.workspaceId, never);
    await deleteEvent(a.workspaceId, held);
    const answer = await pull(a.token, group, first.cookie);
    expect(answer.patch).toEqual([{ op: "del", key: vehicleEventKey(vehicle, held) }]);
  });

  it("collects tombstones older than the horizon; a cookie older than what was collected gets a reset", async () => {
    const a = await userWithWorkspace();
    const vehicle = await insertVehicle(a.workspaceId);
    const event = await insertEvent(a.workspaceId, vehicle);
    const group = crypto.randomUUID();
    const beforeDeletion = await pull(a.token, group);
    await deleteEvent(a.workspaceId, event);
    const afterDeletion = await pull(a.token, crypto.randomUUID());

    const now = Date.now();
    await collectTombstones({ env, db: db() }, now); // writes down today's version
    expect(await db().select().from(vehicleEvents).where(eq(vehicleEvents.id, event)).get()).toBeDefined();
    await collectTombstones({ env, db: db() }, now + TOMBSTONE_HORIZON_MS / 2); // not old enough yet
    expect(await db().select().from(vehicleEvents).where(eq(vehicleEvents.id, event)).get()).toBeDefined();
    // An old cookie still diffs: it gets its del.
    expect((await pull(a.token, crypto.randomUUID(), beforeDeletion.cookie)).patch).toEqual([
      { op: "del", key: vehicleEventKey(vehicle, event) },
    ]);

    const collected = await collectTombstones({ env, db: db() }, now + TOMBSTONE_HORIZON_MS + 1);
    expect(collected).toContain(a.workspaceId);
    // as the scheduled job does after collecting
    await announceWrites({ env }, [a.workspaceId], { readYourWrites: true, change: { poke: false } });
    expect(await db().select().from(vehicleEvents).where(eq(vehicleEvents.id, event)).get()).toBeUndefined();
    const live = await db()
      .select({ n: sql<number>`count(*)` })
      .from(vehicles)
      .where(eq(vehicles.id, vehicle))
      .get();
    expect(live?.n).toBe(1);

    // The cookie from before the deletion can no longer be diffed: full reset, ordered above it.
    const reset = await pull(a.token, group, beforeDeletion.cookie);
    expect(reset.patch[0]).toEqual({ op: "clear" });
    expect(reset.patch.some((p) => p.key === vehicleEventKey(vehicle, event))).toBe(false);
    expect(ordersAbove(reset.cookie, beforeDeletion.cookie)).toBe(true);
    // A cookie from after it still diffs.
    expect((await pull(a.token, crypto.randomUUID(), afterDeletion.cookie)).patch).toEqual([]);
  });

  it("runs in the scheduled job: a changed workspace's version is written down", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const version = (await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get())!.version;
    expect(await db().select().from(syncCheckpoints).where(eq(syncCheckpoints.workspaceId, a.workspaceId))).toEqual([
      { workspaceId: a.workspaceId, version, recordedAt: expect.any(Number) },
    ]);
  });
});
