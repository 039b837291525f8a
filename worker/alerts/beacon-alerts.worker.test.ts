import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync-protocol";
import { database } from "../../db/client";
import { call, userWithWorkspace } from "../test/factories";
import { raiseBeaconAlerts } from "./beacon-alerts";

const db = database(env.DB);
const MINUTE = 60_000;

async function orderBeacons(token: string, workspaceId: string, count = 1) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string }[];
}

async function report(id: string, timestamp: number, lat = 41.88, lon = -87.63) {
  const res = await call(
    `/api/ingest/osmand?${new URLSearchParams({ id, timestamp: String(timestamp), lat: String(lat), lon: String(lon) })}`,
  );
  expect(res.status).toBe(200);
}

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

async function rule(token: string, json: Record<string, unknown>) {
  const res = await call("/api/alert-rules", { method: "POST", token, json });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("beacon silent, from live data", () => {
  it("raises one alert per silence for the rule's vehicles, dated at the last report, ended by the next", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [watched, other] = await orderBeacons(a.token, a.workspaceId, 2);
    const [elsewhere] = await orderBeacons(b.token, b.workspaceId);
    const ruleId = await rule(a.token, { type: "beacon_silent", minutes: 30, vehicleIds: [watched!.vehicleId] });
    await report(watched!.id, Date.now() - 1000, 41.9, -87.6);
    await report(other!.id, Date.now() - 1000);
    await report(elsewhere!.id, Date.now() - 1000);
    const reportedBy = Date.now();

    expect(await raiseBeaconAlerts(db, reportedBy + 29 * MINUTE)).not.toContain(a.workspaceId);
    expect(await raiseBeaconAlerts(db, reportedBy + 31 * MINUTE)).toContain(a.workspaceId);
    expect(await raiseBeaconAlerts(db, reportedBy + 40 * MINUTE)).not.toContain(a.workspaceId); // the same silence
    const [silent, ...rest] = await listAlerts(a.token);
    expect(rest).toEqual([]);
    expect(silent).toMatchObject({
      type: "beacon_silent",
      ruleId,
      vehicleId: watched!.vehicleId,
      endAt: null,
      latitude: 41.9,
    });
    expect(Date.parse(silent!.at)).toBeLessThanOrEqual(reportedBy);
    expect(await listAlerts(b.token)).toEqual([]);

    // it arrives in the Inbox like the others: synced
    const pull = await call("/api/sync/pull", {
      method: "POST",
      token: a.token,
      json: {
        pullVersion: 1,
        clientGroupID: crypto.randomUUID(),
        cookie: null,
        profileID: "p",
        schemaVersion: SCHEMA_VERSION,
      },
    });
    expect(((await pull.json()) as { patch: { key?: string }[] }).patch.map((p) => p.key)).toContain(
      `alert/${silent!.id}`,
    );

    await report(watched!.id, Date.now());
    await raiseBeaconAlerts(db);
    const [ended] = await listAlerts(a.token);
    expect(ended!.id).toBe(silent!.id);
    expect(Date.parse(ended!.endAt!)).toBeGreaterThanOrEqual(reportedBy);
  });
});

describe("device clock ahead, from live data", () => {
  it("raises one alert per episode of refused reports, with the largest skew, ended by an accepted report", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await orderBeacons(a.token, a.workspaceId);
    const ruleId = await rule(a.token, { type: "clock_ahead" });
    await report(beacon!.id, Date.now() - 5000, 41.7, -87.7);
    await report(beacon!.id, Date.now() + 3600_000); // an hour ahead: refused
    await raiseBeaconAlerts(db);
    await report(beacon!.id, Date.now() + 7200_000);
    await raiseBeaconAlerts(db);

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

    await report(beacon!.id, Date.now());
    await raiseBeaconAlerts(db);
    const [ended, ...none] = await listAlerts(a.token);
    expect(none).toEqual([]);
    expect(ended!.id).toBe(alert!.id);
    expect(ended!.endAt).not.toBeNull();
  });
});
