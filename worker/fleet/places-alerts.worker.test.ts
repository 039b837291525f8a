import { describe, expect, it } from "vitest";
import { call, memberWithRole, userWithWorkspace } from "../test/factories";
import { env } from "cloudflare:workers";
import { alertKey } from "../../shared/alerts/alert-rules";
import { firstPull, pullPatch } from "../test/sync";

const KNOTS = 1.943_844;

async function orderOne(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

async function report(
  id: string,
  timestamp: number,
  lat: number,
  lon: number,
  extra: Record<string, string | number> = {},
) {
  const params = new URLSearchParams({
    id,
    timestamp: String(timestamp),
    lat: String(lat),
    lon: String(lon),
    accuracy: "5",
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
  });
  const res = await call(`/api/ingest/osmand?${params}`);
  expect(res.status).toBe(200);
}

type ApiAlert = {
  id: string;
  type: string;
  ruleId: string;
  vehicleId: string;
  placeId: string | null;
  at: string;
  endAt: string | null;
  peak: number | null;
};
const listAlerts = async (token: string, query = "") =>
  ((await (await call(`/api/alerts${query}`, { token })).json()) as { alerts: ApiAlert[] }).alerts;

/** A browser's pull: its first (cookie null), or its next with the cookie it was given. */
const pull = (token: string, cookie: unknown = null) => pullPatch(token, cookie);

describe("places and alerts in ingestion", () => {
  it("turns a pass-through of a small place between two reports into enter and exit alerts, synced", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const gate = (await (
      await call("/api/places", {
        method: "POST",
        token: a.token,
        json: { name: "Gate", geometry: { type: "Circle", center: [-87.63, 41.88], radius: 40 } },
      })
    ).json()) as { id: string };
    const enter = (await (
      await call("/api/alert-rules", {
        method: "POST",
        token: a.token,
        json: { type: "place_enter", placeId: gate.id },
      })
    ).json()) as { id: string };
    await call("/api/alert-rules", { method: "POST", token: a.token, json: { type: "place_exit" } });

    const t0 = Date.now() - 60_000;
    await report(beacon.id, t0, 41.88, -87.635, { ignition: "true", speed: 30 * KNOTS });
    await report(beacon.id, t0 + 28_000, 41.88, -87.625, { ignition: "true", speed: 30 * KNOTS });

    const alerts = await listAlerts(a.token);
    expect(alerts.map((x) => x.type)).toEqual(["place_exit", "place_enter"]); // newest first
    expect(alerts[1]).toMatchObject({ ruleId: enter.id, placeId: gate.id, vehicleId: beacon.vehicleId, endAt: null });
    const enteredAt = Date.parse(alerts[1]!.at);
    expect(enteredAt).toBeGreaterThan(t0 + 10_000);
    expect(enteredAt).toBeLessThan(t0 + 14_000);

    // a repeated request (a tracker retrying) adds nothing
    await report(beacon.id, t0 + 28_000, 41.88, -87.625, { ignition: "true", speed: 30 * KNOTS });
    expect(await listAlerts(a.token)).toHaveLength(2);

    const pull = await firstPull(a.token);
    const keys = ((await pull.json()) as { patch: { key?: string }[] }).patch.map((p) => p.key);
    expect(keys).toContain(`alert/${alerts[0]!.id}`);
  });

  it("raises one speeding alert per episode, with its peak and end, and keeps it to its workspace", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "speeding", speedMph: 70, minSeconds: 20 },
    });
    const t0 = Date.now() - 10 * 60_000;
    for (let i = 0; i <= 12; i++)
      await report(beacon.id, t0 + i * 10_000, 41.88 + i * 0.003, -87.63, {
        ignition: "true",
        speed: (75 + (i === 6 ? 15 : 0)) * 0.868_976,
      });
    await report(beacon.id, t0 + 130_000, 41.92, -87.63, { ignition: "true", speed: 40 * 0.868_976 });

    const alerts = await listAlerts(a.token);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: "speeding",
      at: new Date(t0).toISOString(),
      endAt: new Date(t0 + 130_000).toISOString(),
    });
    expect(alerts[0]!.peak).toBeCloseTo(90, 0);
    expect(await listAlerts(b.token)).toEqual([]);
  });

  it("keeps each member's read state: mark read, then all read", async () => {
    const a = await userWithWorkspace();
    const marked = await call("/api/alerts/read", { method: "POST", token: a.token, json: { ids: ["x1", "x2"] } });
    expect(marked.status).toBe(200);
    expect(await marked.json()).toEqual({ readBefore: 0, readIds: ["x1", "x2"] });
    const all = (await (
      await call("/api/alerts/read", { method: "POST", token: a.token, json: { all: true } })
    ).json()) as { readBefore: number; readIds: string[] };
    expect(all.readIds).toEqual([]);
    expect(all.readBefore).toBeGreaterThan(Date.now() - 60_000);
    expect((await call("/api/alerts/read", { method: "POST", token: a.token, json: { ids: [] } })).status).toBe(400);
    expect((await call("/api/alerts?limit=0", { token: a.token })).status).toBe(400);
    expect((await call("/api/alerts?since=yesterday", { token: a.token })).status).toBe(400);
  });

  it("validates alert rules and lets them be edited and deleted", async () => {
    const a = await userWithWorkspace();
    const bad = await call("/api/alert-rules", {
      method: "POST",
      token: a.token,
      json: { type: "speeding", speedMph: -5 },
    });
    expect(bad.status).toBe(400);
    const rule = (await (
      await call("/api/alert-rules", { method: "POST", token: a.token, json: { type: "idling", minutes: 10 } })
    ).json()) as { id: string };
    const ops = await memberWithRole(a.workspaceId, "member");
    const edited = await call(`/api/alert-rules/${rule.id}`, {
      method: "PATCH",
      token: a.token,
      json: { type: "idling", minutes: 20, notify: { emails: [ops.email] } },
    });
    expect(edited.status).toBe(200);
    const list = (await (await call("/api/alert-rules", { token: a.token })).json()) as {
      rules: { minutes: number }[];
    };
    expect(list.rules.map((r) => r.minutes)).toEqual([20]);
    const other = await userWithWorkspace();
    expect((await call(`/api/alert-rules/${rule.id}`, { method: "DELETE", token: other.token })).status).toBe(404);
    expect((await call(`/api/alert-rules/${rule.id}`, { method: "DELETE", token: a.token })).status).toBe(204);
  });
});

describe("alert retention", () => {
  /** A workspace with one alert past the 90 days and one of a second ago, written as ingestion would (a versioned batch). */
  async function workspaceWithOldAlert(now: number) {
    const { database } = await import("../test/db");
    const { alerts } = await import("../../db/schema");
    const { ALERT_RETENTION_MS } = await import("./alert-retention");
    const { bumpVersion, versionOf } = await import("../test/db");
    const a = await userWithWorkspace();
    const db = database(env.DB);
    const row = (id: string, at: number) => ({
      id,
      workspaceId: a.workspaceId,
      ruleId: "r",
      vehicleId: "v",
      type: "tow" as const,
      at,
      latitude: 1,
      longitude: 2,
      version: versionOf(a.workspaceId),
    });
    await db.batch([
      bumpVersion(db, a.workspaceId),
      db
        .insert(alerts)
        .values([
          row(`old-${a.workspaceId}`, now - ALERT_RETENTION_MS - 1000),
          row(`new-${a.workspaceId}`, now - 1000),
        ]),
    ]);
    return { ...a, old: `old-${a.workspaceId}`, kept: `new-${a.workspaceId}` };
  }
  const expire = async (now: number) => {
    const { database } = await import("../test/db");
    const { expireOldAlerts } = await import("./alert-retention");
    return expireOldAlerts({ env, db: database(env.DB) }, now);
  };

  it("deletes alerts older than 90 days and tells the workspace's browsers (a del in their pull)", async () => {
    const now = Date.now();
    const a = await workspaceWithOldAlert(now);
    expect(await expire(now)).toContain(a.workspaceId);
    const left = await listAlerts(a.token);
    expect(left.map((x) => x.id)).toEqual([a.kept]);
  });

  it("removes an expired alert's row once its tombstone is past the sync horizon, and keeps the live one", async () => {
    const { database } = await import("../test/db");
    const { alerts } = await import("../../db/schema");
    const { inArray } = await import("drizzle-orm");
    const { collectTombstones, TOMBSTONE_HORIZON_MS } = await import("../sync/tombstones");
    const now = Date.now();
    const a = await workspaceWithOldAlert(now);
    await expire(now);
    const rows = () =>
      database(env.DB)
        .select({ id: alerts.id, deleted: alerts.deleted })
        .from(alerts)
        .where(inArray(alerts.id, [a.old, a.kept]))
        .orderBy(alerts.id);
    await collectTombstones({ env, db: database(env.DB) }, now); // writes down the version of the expiry
    expect(await rows()).toEqual([
      { id: a.kept, deleted: false },
      { id: a.old, deleted: true },
    ]);
    expect(await collectTombstones({ env, db: database(env.DB) }, now + TOMBSTONE_HORIZON_MS + 1)).toContain(
      a.workspaceId,
    );
    expect(await rows()).toEqual([{ id: a.kept, deleted: false }]);
  });

  it("gives an open Inbox's next pull a del for its own expired alert alone, nothing of another workspace's", async () => {
    const now = Date.now();
    const a = await workspaceWithOldAlert(now);
    const b = await workspaceWithOldAlert(now);
    const opened = await pull(a.token);
    expect(opened.patch).toContainEqual(expect.objectContaining({ op: "put", key: alertKey(a.old) }));
    expect(await expire(now)).toEqual(expect.arrayContaining([a.workspaceId, b.workspaceId]));
    const next = await pull(a.token, opened.cookie);
    expect(next.patch).toContainEqual({ op: "del", key: alertKey(a.old) });
    // Nothing of b's expiry, and a's kept alert is not sent again.
    expect(next.patch.filter((p) => p.key.includes(b.workspaceId) || p.key === alertKey(a.kept))).toEqual([]);
    expect((await listAlerts(b.token)).map((x) => x.id)).toEqual([b.kept]);
  });
});
