import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { vehicleKey, type Vehicle } from "../../shared/fleet/vehicle";
import { database } from "../test/db";
import { replicacheClientGroups, vehicles } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { readChanges, SharedChanges, type Changes } from "./changes";
import { bumpVersion, versionOf } from "../test/db";
import type { SyncCookie } from "./cookie";

/**
 * The shared part of incremental pulls, read once per write in the workspace's room
 * (docs/decisions/0013): reused between pokes, never across workspaces, never after a poke.
 */
type Op = { op: string; key?: string; value?: unknown };
const db = () => database(env.DB);
const room = (workspaceId: string) => env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));

async function pull(token: string, clientGroupID: string, cookie: SyncCookie | null) {
  const res = await call("/api/sync/pull", {
    method: "POST",
    token,
    json: { pullVersion: 1, clientGroupID, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { cookie: SyncCookie; lastMutationIDChanges: Record<string, number>; patch: Op[] };
}
const names = (patch: Op[]) =>
  patch
    .filter((op) => op.op === "put" && op.key!.startsWith("vehicle/"))
    .map((op) => (decodeSyncedValue(op.key!, op.value) as Vehicle).name);

/** A committed rename, stamped like every write, without the poke writers send afterwards. */
async function renameUnannounced(workspaceId: string, id: string, name: string) {
  await db().batch([
    bumpVersion(db(), workspaceId),
    db()
      .update(vehicles)
      .set({ name, version: versionOf(workspaceId) })
      .where(and(eq(vehicles.id, id), eq(vehicles.workspaceId, workspaceId))),
  ]);
}

describe("shared incremental answers", () => {
  it("are reused by pulls until the next poke, and a poke makes the next pull read the write", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before" });
    // Three browsers that pulled the same version.
    const groups = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    const cookies = await Promise.all(groups.map(async (g) => (await pull(a.token, g, null)).cookie));
    const cookie = cookies[0]!;
    // the same cookie but for the group it names (docs/decisions/0035)
    expect(new Set(cookies.map((c) => JSON.stringify({ ...c, group: undefined }))).size).toBe(1);
    await renameUnannounced(a.workspaceId, id, "First");
    await room(a.workspaceId).changed({});
    expect(names((await pull(a.token, groups[0]!, cookie)).patch)).toEqual(["First"]);

    // A write the room has not heard of yet: another client at the same cookie gets the same answer
    // (that is the sharing) ...
    await renameUnannounced(a.workspaceId, id, "Second");
    expect(names((await pull(a.token, groups[1]!, cookie)).patch)).toEqual(["First"]);
    // ... and the write's poke makes every later pull read it.
    await room(a.workspaceId).changed({});
    const after = await pull(a.token, groups[2]!, cookie);
    expect(names(after.patch)).toEqual(["Second"]);
    expect(after.cookie.version).toBeGreaterThan(cookie.version);
  });

  it("never hands one workspace's rows to another's pull, even at the same cookie", async () => {
    const a = await userWithWorkspace("a");
    const b = await userWithWorkspace("b");
    const mine = await insertVehicle(a.workspaceId, { name: "A's" });
    const theirs = await insertVehicle(b.workspaceId, { name: "B's" });
    // Both workspaces are at version 1: the same cookie means the same number in both.
    const [ga, gb] = [crypto.randomUUID(), crypto.randomUUID()];
    const ca = await pull(a.token, ga, null);
    const cb = await pull(b.token, gb, null);
    expect({ ...ca.cookie, group: undefined }).toEqual({ ...cb.cookie, group: undefined });
    await renameUnannounced(a.workspaceId, mine, "A's renamed");
    await renameUnannounced(b.workspaceId, theirs, "B's renamed");
    await Promise.all([room(a.workspaceId).changed({}), room(b.workspaceId).changed({})]);
    const [pa, pb] = await Promise.all([pull(a.token, ga, ca.cookie), pull(b.token, gb, cb.cookie)]);
    expect(pa.patch.map((op) => op.key)).toEqual([vehicleKey(mine)]);
    expect(pb.patch.map((op) => op.key)).toEqual([vehicleKey(theirs)]);
    // The room's memo is keyed by workspace too: asking A's room about B (at a cookie A's room has
    // just answered for A) reads B's rows only.
    const viaWrongRoom = (await room(a.workspaceId).changesSince(b.workspaceId, cb.cookie.version)) as Changes;
    expect(viaWrongRoom.vehicleRows.map((r) => r.id)).toEqual([theirs]);
  });

  it("give each client group only its own clients' last mutation ids", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId);
    const [g1, g2] = [crypto.randomUUID(), crypto.randomUUID()];
    const [c1, c2] = [crypto.randomUUID(), crypto.randomUUID()];
    const start = await pull(a.token, g1, null);
    await pull(a.token, g2, null);
    for (const [group, client, name] of [
      [g1, c1, "One"],
      [g2, c2, "Two"],
    ] as const) {
      const res = await call("/api/sync/push", {
        method: "POST",
        token: a.token,
        json: {
          pushVersion: 1,
          clientGroupID: group,
          profileID: "p",
          schemaVersion: SCHEMA_VERSION,
          mutations: [
            {
              clientID: client,
              id: 1,
              name: "updateVehicle",
              timestamp: 1,
              args: { id, name, vin: null, year: null, make: null, model: null },
            },
          ],
        },
      });
      expect(res.status).toBe(200);
    }
    await room(a.workspaceId).changed({});
    expect((await pull(a.token, g1, start.cookie)).lastMutationIDChanges).toEqual({ [c1]: 1 });
    expect((await pull(a.token, g2, start.cookie)).lastMutationIDChanges).toEqual({ [c2]: 1 });
  });

  it("read once for many concurrent pulls, serve newer cookies from that read, and read again after a poke or a failed read", async () => {
    let reads = 0;
    let fail = false;
    const shared = new SharedChanges(async (workspaceId, since) => {
      reads++;
      if (fail) throw new Error("D1 unavailable");
      return readChanges(db(), workspaceId, since);
    });
    const a = await userWithWorkspace();
    const v1 = await insertVehicle(a.workspaceId, { name: "One" }); // version 1
    const v2 = await insertVehicle(a.workspaceId, { name: "Two" }); // version 2
    const answers = await Promise.all(Array.from({ length: 100 }, () => shared.since(a.workspaceId, 0)));
    expect(reads).toBe(1);
    expect(answers[99]!.vehicleRows.map((r) => r.id).sort()).toEqual([v1, v2].sort());
    // A newer cookie is served from the same read, narrowed to what reading from it would give.
    const fromOne = await shared.since(a.workspaceId, 1);
    expect(reads).toBe(1);
    expect(fromOne).toEqual(await readChanges(db(), a.workspaceId, 1));
    expect(fromOne.vehicleRows.map((r) => r.id)).toEqual([v2]);
    // An older cookie needs a wider read.
    await shared.since(a.workspaceId, -1);
    expect(reads).toBe(2);
    shared.invalidate();
    await shared.since(a.workspaceId, 1);
    expect(reads).toBe(3);
    shared.invalidate();
    fail = true;
    await expect(shared.since(a.workspaceId, 1)).rejects.toThrow("D1 unavailable");
    fail = false;
    await shared.since(a.workspaceId, 1);
    expect(reads).toBe(5);
  });

  it("decide del or nothing per client from one shared read: a row created and deleted after a cookie was never that client's", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId, { name: "Kept" });
    const older = await pull(a.token, crypto.randomUUID(), null); // has not seen the next vehicle
    const brief = await insertVehicle(a.workspaceId, { name: "Brief" });
    const newer = await pull(a.token, crypto.randomUUID(), null); // holds it
    expect(names(newer.patch).sort()).toEqual(["Brief", "Kept"]);
    await db().batch([
      bumpVersion(db(), a.workspaceId),
      db()
        .update(vehicles)
        .set({ deleted: true, version: versionOf(a.workspaceId) })
        .where(eq(vehicles.id, brief)),
    ]);
    await room(a.workspaceId).changed({});
    // The older cookie's pull makes the room read from it; the newer one is answered from that read.
    const fromOlder = await pull(a.token, crypto.randomUUID(), older.cookie);
    const fromNewer = await pull(a.token, crypto.randomUUID(), newer.cookie);
    expect(fromOlder.patch).toEqual([]);
    expect(fromNewer.patch).toEqual([{ op: "del", key: vehicleKey(brief) }]);
  });

  it("never take a shared read older than the client's cookie for a restore: the pull reads D1 instead", async () => {
    const a = await userWithWorkspace();
    const id = await insertVehicle(a.workspaceId, { name: "Before" });
    const first = await pull(a.token, crypto.randomUUID(), null);
    await pull(a.token, crypto.randomUUID(), first.cookie); // the room now holds a read at this version
    await renameUnannounced(a.workspaceId, id, "After"); // the poke has not reached the room yet
    const group = crypto.randomUUID();
    const full = await pull(a.token, group, null); // full answers read D1: a newer cookie than the room's read
    expect(names(full.patch)).toEqual(["After"]);
    const next = await pull(a.token, group, full.cookie);
    expect(next.patch).toEqual([]); // not a `clear`: nothing was restored
    expect(next.cookie).toEqual(full.cookie);
    const row = await db().select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, group)).get();
    expect(row?.rebase).toBe(false);
  });

  it("remember a client group's owner only as D1 confirmed it: another user is refused whatever this isolate saw", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const group = crypto.randomUUID();
    const first = await pull(a.token, group, null);
    await pull(a.token, group, first.cookie); // answered from the remembered owner
    const res = await call("/api/sync/pull", {
      method: "POST",
      token: b.token,
      json: {
        pullVersion: 1,
        clientGroupID: group,
        cookie: first.cookie,
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
      },
    });
    expect(res.status).toBe(403);
    // A brand-new id is claimed for whoever names it first, and only for them.
    const fresh = crypto.randomUUID();
    await pull(b.token, fresh, null);
    const stolen = await call("/api/sync/pull", {
      method: "POST",
      token: a.token,
      json: { pullVersion: 1, clientGroupID: fresh, cookie: null, profileID: "p", schemaVersion: SCHEMA_VERSION },
    });
    expect(stolen.status).toBe(403);
  });
});
