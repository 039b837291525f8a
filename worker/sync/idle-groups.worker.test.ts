import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pullRequest, pushRequest } from "../../shared/sync/sync-requests";
import { database } from "../../db/client";
import { replicacheClientGroups, replicacheClients, vehicles } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { runRetention, CLIENT_GROUP_IDLE_DAYS } from "../retention";
import { checkClientGroupOwner, TOUCH_INTERVAL_MS } from "./client-group";
import type { SyncCookie } from "./cookie";

/**
 * Issue 35: Replicache client groups no longer grow forever (docs/decisions/0035). Each keeps its
 * last sync time, written at most once an hour; the hourly retention deletes groups idle for
 * 60 days with their clients; a tab that comes back afterwards is told ClientStateNotFound (it
 * starts anew) and the server loses nothing of its data.
 */
const db = database(env.DB);
const DAY = 86_400_000;
type PullBody = {
  cookie: SyncCookie;
  lastMutationIDChanges: Record<string, number>;
  patch: { op: string; key?: string }[];
};

const groupRow = async (id: string) =>
  (await db.select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, id)))[0];

async function pullAs(token: string, clientGroupID: string, cookie: SyncCookie | null = null) {
  const res = await call("/api/sync/pull", { method: "POST", token, json: pullRequest({ clientGroupID, cookie }) });
  expect(res.status).toBe(200);
  return (await res.json()) as PullBody | { error: string };
}
const rename = (id: string, name: string) => ({
  name: "updateVehicle",
  args: { id, name, vin: null, year: 2020, make: "Ford", model: "Transit" },
});

describe("a client group's last sync time", () => {
  it("is written when the group is claimed, then at most once an hour however often it pulls", async () => {
    const a = await userWithWorkspace();
    const session = { userId: a.userId, workspaceId: a.workspaceId };
    const id = crypto.randomUUID();
    const t0 = Date.now();
    expect(await checkClientGroupOwner(db, session, id, t0)).toEqual({ created: true });
    expect((await groupRow(id))!.lastPulledAt).toBe(t0);
    // Pulls within the hour: no write (and, in this isolate, no D1 statement at all).
    for (const minutes of [1, 30, 59]) await checkClientGroupOwner(db, session, id, t0 + minutes * 60_000);
    expect((await groupRow(id))!.lastPulledAt).toBe(t0);
    // An hour on: one write.
    expect(await checkClientGroupOwner(db, session, id, t0 + TOUCH_INTERVAL_MS)).toEqual({ created: false });
    expect((await groupRow(id))!.lastPulledAt).toBe(t0 + TOUCH_INTERVAL_MS);
  });
});

describe(`a client group idle for ${CLIENT_GROUP_IDLE_DAYS} days`, () => {
  it("is deleted with its clients by the hourly retention; one synced lately is kept", async () => {
    const a = await userWithWorkspace();
    const idle = crypto.randomUUID();
    const fresh = crypto.randomUUID();
    for (const group of [idle, fresh]) {
      const res = await call("/api/sync/push", {
        method: "POST",
        token: a.token,
        json: pushRequest([{ name: "noSuchMutation", args: {} }], { clientGroupID: group }),
      });
      expect(res.status).toBe(200);
    }
    const now = Date.now();
    await db
      .update(replicacheClientGroups)
      .set({ lastPulledAt: now - (CLIENT_GROUP_IDLE_DAYS + 1) * DAY })
      .where(eq(replicacheClientGroups.id, idle));
    await db
      .update(replicacheClientGroups)
      .set({ lastPulledAt: now - (CLIENT_GROUP_IDLE_DAYS - 1) * DAY })
      .where(eq(replicacheClientGroups.id, fresh));
    const deleted = await runRetention(db, now);
    expect(deleted.replicache_client_groups).toBeGreaterThanOrEqual(1);
    expect(await groupRow(idle)).toBeUndefined();
    expect(await db.select().from(replicacheClients).where(eq(replicacheClients.clientGroupId, idle))).toEqual([]);
    expect(await groupRow(fresh)).toBeDefined();
    expect(await db.select().from(replicacheClients).where(eq(replicacheClients.clientGroupId, fresh))).toHaveLength(1);
  });

  it("comes back as yesterday's open tab: ClientStateNotFound to its pull and its push, then a new group gets all the data", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId, { name: "Truck" });
    const group = crypto.randomUUID();
    const clientID = crypto.randomUUID();
    const first = (await pullAs(a.token, group)) as PullBody;
    const pushed = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: pushRequest([rename(vehicleId, "Renamed")], { clientGroupID: group, clientID }),
    });
    expect(pushed.status).toBe(200);
    const seen = (await pullAs(a.token, group, first.cookie)) as PullBody;
    expect(seen.lastMutationIDChanges).toEqual({ [clientID]: 1 });

    // Two months pass with the tab asleep; the hourly retention runs.
    await db
      .update(replicacheClientGroups)
      .set({ lastPulledAt: Date.now() - (CLIENT_GROUP_IDLE_DAYS + 1) * DAY })
      .where(eq(replicacheClientGroups.id, group));
    await runRetention(db);
    expect(await groupRow(group)).toBeUndefined();

    // The tab wakes: its pending edit (mutation 2) and its pull are both told its state is gone, and
    // neither brings the group back.
    const pendingPush = await call("/api/sync/push", {
      method: "POST",
      token: a.token,
      json: pushRequest([{ ...rename(vehicleId, "Edited while asleep"), id: 2 }], { clientGroupID: group, clientID }),
    });
    expect(await pendingPush.json()).toEqual({ error: "ClientStateNotFound" });
    expect(await pullAs(a.token, group, seen.cookie)).toEqual({ error: "ClientStateNotFound" });
    expect(await groupRow(group)).toBeUndefined();

    // Replicache starts a new group; its first pull has everything, the earlier edit included.
    const fresh = (await pullAs(a.token, crypto.randomUUID())) as PullBody;
    expect(fresh.patch[0]).toEqual({ op: "clear" });
    expect(fresh.patch.map((op) => op.key)).toContain(`vehicle/${vehicleId}`);
    expect((await db.select().from(vehicles).where(eq(vehicles.id, vehicleId)))[0]!.name).toBe("Renamed");
  });

  it("is not confused with a fork: a new group carrying another group's cookie is served incrementally", async () => {
    const a = await userWithWorkspace();
    const old = (await pullAs(a.token, crypto.randomUUID())) as PullBody;
    const fork = crypto.randomUUID();
    const answer = (await pullAs(a.token, fork, old.cookie)) as PullBody;
    expect(answer.patch).toEqual([]);
    expect(answer.cookie.group).toBe(fork);
  });
});
