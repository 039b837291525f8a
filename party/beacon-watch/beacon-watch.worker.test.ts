import { firstPull } from "../../worker/test/sync";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../worker/test/db";
import { beacons, vehicles } from "../../db/schema";
import { call, report, userWithWorkspace } from "../../worker/test/factories";
import { ingestRequests, objectAlarm, roomOf, runObjectTasks } from "../../worker/test/ingest";
import { wakeSilentWorkspaces } from "../../worker/beacon-watch/wake-watches";
import { DEADLINE_GROUP_MS, INACTIVE_AFTER_MS } from "../../domain/alerts/beacon-watch";
import { FIRST_LOOK_DELAY_MS, WATCH_RECHECK_MS } from "./beacon-watch-task";

// Beacon silence and clock-ahead as a task of the workspace object's alarm (docs/decisions/0059):
// decided from the last reports the object holds, written by the object, with no cron run.
const db = database(env.DB);
const MINUTE = 60_000;

async function orderBeacons(token: string, workspaceId: string, count = 1) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string }[];
}

async function osmand(id: string, timestamp: number, lat = 41.88, lon = -87.63) {
  const res = await call(
    `/api/ingest/osmand?${new URLSearchParams({ id, timestamp: String(timestamp), lat: String(lat), lon: String(lon) })}`,
  );
  expect(res.status).toBe(200);
}

/** A report the object took `ago` ms ago by its own clock (the server's time then, the device's too). */
const reportedAgo = (deviceId: string, ago: number, flushMs = 0) =>
  ingestRequests([[report(deviceId, Date.now() - ago, { latitude: 41.9 })]], { now: Date.now() - ago, flushMs });

type ApiAlert = {
  id: string;
  type: string;
  ruleId: string;
  vehicleId: string;
  at: string;
  endAt: string | null;
  latitude: number;
  peak: number | null;
};
const listAlerts = async (token: string) =>
  ((await (await call("/api/alerts", { token })).json()) as { alerts: ApiAlert[] }).alerts;
const statusOf = async (vehicleId: string) =>
  (await db.select().from(vehicles).where(eq(vehicles.id, vehicleId)).get())!.beaconStatus;

async function rule(token: string, json: Record<string, unknown>) {
  const res = await call("/api/alert-rules", { method: "POST", token, json });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("beacon silent, from the object's last reports", () => {
  it("raises one alert per silence for the rule's vehicles, dated at the last report, ended by the next", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [watched, other] = await orderBeacons(a.token, a.workspaceId, 2);
    const [elsewhere] = await orderBeacons(b.token, b.workspaceId);
    const ruleId = await rule(a.token, { type: "beacon_silent", minutes: 30, vehicleIds: [watched!.vehicleId] });
    const t = Date.now();
    for (const beacon of [watched!, other!, elsewhere!])
      await ingestRequests([[report(beacon.id, t, { latitude: 41.9, longitude: -87.6 })]], { now: t });

    await runObjectTasks(a.workspaceId, t + 29 * MINUTE);
    expect(await listAlerts(a.token)).toEqual([]);
    await runObjectTasks(a.workspaceId, t + 31 * MINUTE);
    await runObjectTasks(a.workspaceId, t + 40 * MINUTE); // the same silence
    const [silent, ...rest] = await listAlerts(a.token);
    expect(rest).toEqual([]);
    expect(silent).toMatchObject({
      type: "beacon_silent",
      ruleId,
      vehicleId: watched!.vehicleId,
      endAt: null,
      latitude: 41.9,
    });
    expect(Date.parse(silent!.at)).toBe(t);
    // Another workspace's object never ran: its silent beacon is untouched, it has no alert.
    expect(await listAlerts(b.token)).toEqual([]);
    expect(await statusOf(elsewhere!.vehicleId)).toBe("ACTIVE");

    // it arrives in the Inbox like the others: synced
    const pull = await firstPull(a.token);
    expect(((await pull.json()) as { patch: { key?: string }[] }).patch.map((p) => p.key)).toContain(
      `alert/${silent!.id}`,
    );

    await ingestRequests([[report(watched!.id, t + 42 * MINUTE)]], { now: t + 42 * MINUTE });
    await runObjectTasks(a.workspaceId, t + 43 * MINUTE);
    const [ended, ...none] = await listAlerts(a.token);
    expect(none).toEqual([]);
    expect(ended!.id).toBe(silent!.id);
    expect(Date.parse(ended!.endAt!)).toBe(t + 42 * MINUTE);
  });

  it("makes a silent beacon INACTIVE and raises beacon_silent when the object's alarm rings, with no cron run", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await orderBeacons(a.token, a.workspaceId);
    const ruleId = await rule(a.token, { type: "beacon_silent", minutes: 10 });
    await reportedAgo(beacon!.id, 20 * MINUTE);
    expect(await statusOf(beacon!.vehicleId)).toBe("ACTIVE");

    // The report set the object's alarm, for its first look at the latest; it rings, then the clock moves on to that look.
    const firstLook = Date.now() + FIRST_LOOK_DELAY_MS;
    expect(await objectAlarm(a.workspaceId)).toBeLessThanOrEqual(firstLook);
    expect(await runDurableObjectAlarm(roomOf(a.workspaceId))).toBe(true);
    expect(await statusOf(beacon!.vehicleId)).toBe("ACTIVE");
    await runObjectTasks(a.workspaceId, firstLook);
    expect(await statusOf(beacon!.vehicleId)).toBe("INACTIVE");
    expect(await listAlerts(a.token)).toMatchObject([{ type: "beacon_silent", ruleId, vehicleId: beacon!.vehicleId }]);
  });

  it("sets the object's alarm for the silence deadline, rounded up to the minute a fleet shares", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await orderBeacons(a.token, a.workspaceId);
    const last = Date.now() - 5 * MINUTE;
    await ingestRequests([[report(beacon!.id, last)]], { now: last, flushMs: 0 });
    await runObjectTasks(a.workspaceId, Date.now() + FIRST_LOOK_DELAY_MS); // its first look: nothing silent yet
    const deadline = Math.ceil((last + INACTIVE_AFTER_MS) / DEADLINE_GROUP_MS) * DEADLINE_GROUP_MS;
    expect(await objectAlarm(a.workspaceId)).toBeLessThanOrEqual(deadline);
    await runObjectTasks(a.workspaceId, deadline - 1);
    expect(await statusOf(beacon!.vehicleId)).toBe("ACTIVE");
    await runObjectTasks(a.workspaceId, deadline);
    expect(await statusOf(beacon!.vehicleId)).toBe("INACTIVE");
  });

  it("notices after an eviction the beacons that went silent while the object slept", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await orderBeacons(a.token, a.workspaceId);
    await rule(a.token, { type: "beacon_silent", minutes: 10 });
    // Taken by the object and not flushed yet: only its own storage knows of the report.
    await reportedAgo(beacon!.id, 20 * MINUTE, MINUTE);
    await expect(runInDurableObject(roomOf(a.workspaceId), (_room, state) => state.abort("evicted"))).rejects.toThrow();

    // A new instance: its alarm rings (what was pending reaches D1), then the clock moves on to its first look.
    expect(await runDurableObjectAlarm(roomOf(a.workspaceId))).toBe(true);
    await runObjectTasks(a.workspaceId, Date.now() + FIRST_LOOK_DELAY_MS);
    expect(await statusOf(beacon!.vehicleId)).toBe("INACTIVE");
    expect(await listAlerts(a.token)).toMatchObject([{ type: "beacon_silent", vehicleId: beacon!.vehicleId }]);
  });

  it("wakes, from the cron, an object whose beacons went silent before it ever watched them; the cron writes nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [silent] = await orderBeacons(a.token, a.workspaceId);
    const [recent] = await orderBeacons(b.token, b.workspaceId);
    await rule(a.token, { type: "beacon_silent", minutes: 10 });
    await rule(b.token, { type: "beacon_silent", minutes: 10 });
    // As D1 held them before the watch moved into the objects: neither object has ever heard of them.
    await db
      .update(beacons)
      .set({ lastReportAt: Date.now() - 20 * MINUTE })
      .where(eq(beacons.id, silent!.id));
    await db
      .update(beacons)
      .set({ lastReportAt: Date.now() - MINUTE })
      .where(eq(beacons.id, recent!.id));
    for (const v of [silent!.vehicleId, recent!.vehicleId])
      await db.update(vehicles).set({ beaconStatus: "ACTIVE" }).where(eq(vehicles.id, v));

    const woken = await wakeSilentWorkspaces(db, env);
    expect(woken).toContain(a.workspaceId);
    expect(woken).not.toContain(b.workspaceId);
    expect(await statusOf(silent!.vehicleId)).toBe("ACTIVE"); // the cron wrote nothing
    expect(await objectAlarm(a.workspaceId)).toBeLessThanOrEqual(Date.now() + FIRST_LOOK_DELAY_MS);
    await runObjectTasks(a.workspaceId, Date.now() + FIRST_LOOK_DELAY_MS);
    expect(await statusOf(silent!.vehicleId)).toBe("INACTIVE");
    expect(await listAlerts(a.token)).toMatchObject([{ type: "beacon_silent", vehicleId: silent!.vehicleId }]);
    expect(await statusOf(recent!.vehicleId)).toBe("ACTIVE");
    expect(await listAlerts(b.token)).toEqual([]);
    // Done: the next minute finds nothing to wake in that workspace.
    expect(await wakeSilentWorkspaces(db, env)).not.toContain(a.workspaceId);
  });
});

describe("device clock ahead, from the object's last refusals", () => {
  it("raises one alert per episode of refused reports, with the largest skew, ended by an accepted report", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await orderBeacons(a.token, a.workspaceId);
    const ruleId = await rule(a.token, { type: "clock_ahead" });
    await osmand(beacon!.id, (Date.now() - 5000) / 1000, 41.7, -87.7);
    await osmand(beacon!.id, (Date.now() + 3600_000) / 1000); // an hour ahead: refused
    const start = Date.now() + FIRST_LOOK_DELAY_MS;
    await runObjectTasks(a.workspaceId, start);
    await osmand(beacon!.id, (Date.now() + 7200_000) / 1000);
    await runObjectTasks(a.workspaceId, start + WATCH_RECHECK_MS);

    const [alert, ...rest] = await listAlerts(a.token);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      type: "clock_ahead",
      ruleId,
      vehicleId: beacon!.vehicleId,
      endAt: null,
      latitude: 41.7,
    });
    expect(alert!.peak).toBeGreaterThan(7100);

    await osmand(beacon!.id, Date.now() / 1000);
    await runObjectTasks(a.workspaceId, start + 2 * WATCH_RECHECK_MS);
    const [ended, ...none] = await listAlerts(a.token);
    expect(none).toEqual([]);
    expect(ended!.id).toBe(alert!.id);
    expect(ended!.endAt).not.toBeNull();
  });
});
