import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { database } from "../../db/client";
import { telemetry, vehicles, workspaces } from "../../db/schema";
import { storedPositions } from "../test/positions";
import { call, userWithWorkspace } from "../test/factories";
import { runObjectTasks } from "../test/ingest";
import { firstPull } from "../test/sync";

const db = () => database(env.DB);

async function order(token: string, workspaceId: string, count = 1) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string; vehicleName: string }[];
}

const osmand = (params: Record<string, string | number>) =>
  call(`/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);

const telemetryOf = (vehicleId: string) =>
  db().select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get();
const versionOf = async (id: string) =>
  (await db().select().from(workspaces).where(eq(workspaces.id, id)).get())!.version;
const T0 = Date.parse("2026-11-02T08:00:00Z");

describe("beacon orders", () => {
  it("creates a beacon with an unguessable id and a vehicle for each, visible in the next pull", async () => {
    const a = await userWithWorkspace();
    const beacons = await order(a.token, a.workspaceId, 3);
    expect(beacons).toHaveLength(3);
    for (const b of beacons) expect(b.id).toMatch(/^[\w-]{32}$/);
    expect(new Set(beacons.map((b) => b.id)).size).toBe(3);
    expect(beacons.map((b) => b.vehicleName)).toEqual(["Vehicle 1", "Vehicle 2", "Vehicle 3"]);
    const pull = await firstPull(a.token);
    const { patch } = (await pull.json()) as { patch: { key?: string; value?: unknown }[] };
    const puts = patch.filter((p) => p.key?.startsWith("vehicle/"));
    expect(puts.map((p) => p.key).sort()).toEqual(beacons.map((b) => `vehicle/${b.vehicleId}`).sort());
    expect(puts.every((p) => (decodeSyncedValue(p.key!, p.value) as Vehicle).beaconStatus === "PENDING")).toBe(true);
  });

  it("orders up to 100 at a time, in one batch that fits D1's parameter limit", async () => {
    const a = await userWithWorkspace();
    expect(await order(a.token, a.workspaceId, 100)).toHaveLength(100);
  });

  it("refuses counts outside 1..100 and other workspaces", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const cases: [unknown, string][] = [
      [0, "Order at least 1 beacon"],
      [-3, "Order at least 1 beacon"],
      [101, "Order at most 100 beacons at a time"],
      [1.5, "Enter a whole number"],
      ["x", "Enter a number"],
    ];
    for (const [count, message] of cases) {
      const res = await call("/api/beacons/order", {
        method: "POST",
        token: a.token,
        json: { workspaceId: a.workspaceId, count },
      });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as {
        error: { code: string; message: string; fields: Record<string, string[]> };
      };
      expect(error.fields.count).toEqual([message]);
    }
    expect(
      (await call("/api/beacons/order", { method: "POST", json: { workspaceId: a.workspaceId, count: 1 } })).status,
    ).toBe(401);
    expect(await db().select().from(vehicles).where(eq(vehicles.workspaceId, a.workspaceId)).all()).toEqual([]);
    const res = await call("/api/beacons/order", {
      method: "POST",
      token: a.token,
      json: { workspaceId: b.workspaceId, count: 1 },
    });
    expect(res.status).toBe(403);
    expect(await db().select().from(vehicles).where(eq(vehicles.workspaceId, b.workspaceId)).all()).toEqual([]);
  });
});

describe("OsmAnd ingestion", () => {
  it("accepts a query-string report, converts knots, and makes the beacon ACTIVE", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const res = await osmand({
      id: beacon!.id,
      lat: 40.7128,
      lon: -74.006,
      timestamp: T0 / 1000,
      speed: 10,
      ignition: "true",
      fuel: 64,
      odometer: 120500,
    });
    expect(res.status).toBe(200);
    const t = await telemetryOf(beacon!.vehicleId);
    expect(t).toMatchObject({
      latitude: 40.7128,
      longitude: -74.006,
      recordedAt: T0,
      fuel: 64,
      odometer: 120500,
      status: "moving",
    });
    expect(t!.speed).toBeCloseTo(5.14444, 4);
    const v = await db().select().from(vehicles).where(eq(vehicles.id, beacon!.vehicleId)).get();
    expect(v!.beaconStatus).toBe("ACTIVE");
  });

  it("accepts deviceid, location=lat,lon, millisecond and ISO timestamps, and form posts", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    expect((await osmand({ deviceid: beacon!.id, location: "41.1,-87.6", timestamp: T0 })).status).toBe(200);
    expect((await telemetryOf(beacon!.vehicleId))!.recordedAt).toBe(T0);
    expect((await osmand({ id: beacon!.id, lat: 41.2, lon: -87.7, timestamp: "2026-11-02T08:01:00Z" })).status).toBe(
      200,
    );
    expect((await telemetryOf(beacon!.vehicleId))!.recordedAt).toBe(T0 + 60_000);
    const form = await call("/api/ingest/osmand", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        id: beacon!.id,
        lat: "41.3",
        lon: "-87.8",
        timestamp: String(T0 / 1000 + 120),
        ignition: "false",
      }).toString(),
    });
    expect(form.status).toBe(200);
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 41.3, status: "off" });
  });

  it("accepts the JSON variant with speed in m/s, and batches", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const location = (i: number) => ({
      timestamp: new Date(T0 + i * 10_000).toISOString(),
      coords: { latitude: 34.05 + i * 0.001, longitude: -118.25, speed: 12.5, heading: 90 },
      odometer: 5000 + i * 125,
      extras: { ignition: true, fuel: 50 },
    });
    const res = await call("/api/ingest/osmand", {
      method: "POST",
      json: { device_id: beacon!.id, location: [location(1), location(0)] },
    });
    expect(res.status).toBe(200);
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({
      speed: 12.5,
      heading: 90,
      odometer: 5125,
      recordedAt: T0 + 10_000,
    });
  });

  it("reads every OsmAnd attribute into the position history in stored units", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    // Traccar Client POSTs with the parameters in the query string and an empty body.
    const query = new URLSearchParams({
      id: beacon!.id,
      lat: "29.7604",
      lon: "-95.3698",
      timestamp: String(T0 / 1000),
      speed: "20",
      heading: "135",
      altitude: "12.5",
      accuracy: "8",
      batt: "140",
      ignition: "true",
      fuel: "-5",
      odometer: "42000",
    });
    expect((await call(`/api/ingest/osmand?${query}`, { method: "POST" })).status).toBe(200);
    const row = (await storedPositions(beacon!.id))[0]!;
    expect(row).toMatchObject({
      recordedAt: T0,
      heading: 135,
      altitude: 12.5,
      accuracy: 8,
      ignition: true,
      odometer: 42000,
    });
    expect(row.speed).toBeCloseTo(20 * 0.514444, 4);
    // Percentages out of range are clamped, not refused.
    expect(row).toMatchObject({ battery: 100, fuel: 0 });
  });

  it("reads the JSON variant's single location, battery level 0..1 and odometer in extras", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const res = await call("/api/ingest/osmand", {
      method: "POST",
      json: {
        device_id: beacon!.id,
        location: {
          timestamp: T0,
          coords: { latitude: 47.6062, longitude: -122.3321, speed: -1, heading: 10, altitude: 50, accuracy: 4 },
          battery: { level: 0.42 },
          extras: { ignition: false, fuel: 30, odometer: 9000 },
        },
      },
    });
    expect(res.status).toBe(200);
    const row = (await storedPositions(beacon!.id))[0]!;
    // Millisecond timestamps stay as they are; a negative speed (unknown, on iOS) is not reported.
    expect(row).toMatchObject({ recordedAt: T0, speed: null, battery: 42, ignition: false, fuel: 30, odometer: 9000 });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ status: "off", fuel: 30, odometer: 9000 });
  });

  it("takes a report without a timestamp as sent now", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const before = Date.now();
    expect((await osmand({ id: beacon!.id, lat: 40, lon: -100 })).status).toBe(200);
    expect((await telemetryOf(beacon!.vehicleId))!.recordedAt).toBeGreaterThanOrEqual(before);
  });

  it("answers 400 with a clear message, and stores nothing, for bad reports", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const cases: [Record<string, string | number>, string][] = [
      [{ lat: 1, lon: 2 }, "Missing device id"],
      [{ id: "no-such-beacon-id-123", lat: 1, lon: 2 }, "Unknown device id"],
      [{ id: beacon!.id, lat: "north", lon: 2 }, "Unreadable position"],
      [{ id: beacon!.id, lat: 95, lon: 2 }, "Unreadable position"],
      [{ id: beacon!.id, lat: 1, lon: 2, timestamp: "yesterday" }, "Unreadable timestamp"],
    ];
    for (const [params, message] of cases) {
      const res = await osmand(params);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(message);
    }
    const more: [Record<string, string | number>, string][] = [
      [{ id: beacon!.id, lat: 1 }, "Unreadable position"],
      [{ id: beacon!.id, location: "1" }, "Unreadable position"],
      [{ id: beacon!.id, lat: 1, lon: 200 }, "Unreadable position"],
    ];
    for (const [params, message] of more) {
      const res = await osmand(params);
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe("bad_request");
      expect(error.message).toContain(message);
    }
    const form = await call("/api/ingest/osmand", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ lat: "1", lon: "2" }).toString(),
    });
    expect(form.status).toBe(400);
    expect(((await form.json()) as { error: { message: string } }).error.message).toContain("Missing device id");
    const jsonCases: [unknown, string][] = [
      [{ location: { coords: { latitude: 1, longitude: 2 } } }, "Missing device id"],
      [{ device_id: beacon!.id, location: { coords: { latitude: "x", longitude: 2 } } }, "Unreadable position"],
      [{ device_id: beacon!.id }, "Unreadable report"],
      [
        { device_id: beacon!.id, location: { timestamp: "soon", coords: { latitude: 1, longitude: 2 } } },
        "Unreadable timestamp",
      ],
    ];
    for (const [json, message] of jsonCases) {
      const res = await call("/api/ingest/osmand", { method: "POST", json });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(message);
    }
    const bad = await call("/api/ingest/osmand", {
      method: "POST",
      body: "{",
      headers: { "Content-Type": "application/json" },
    });
    expect(bad.status).toBe(400);
    // A refused report does not wake the beacon either.
    expect((await db().select().from(vehicles).where(eq(vehicles.id, beacon!.vehicleId)).get())!.beaconStatus).toBe(
      "PENDING",
    );
    expect(await storedPositions(beacon!.id)).toEqual([]);
  });

  it("stores an exact duplicate once", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const report = { id: beacon!.id, lat: 40, lon: -100, timestamp: T0 / 1000 };
    await osmand(report);
    const version = await versionOf(a.workspaceId);
    const again = await osmand(report);
    expect(((await again.json()) as { outcomes: string[] }).outcomes).toEqual(["duplicate"]);
    expect(await storedPositions(beacon!.id)).toHaveLength(1);
    expect(await versionOf(a.workspaceId)).toBe(version);
    // The same position again in another form (JSON, milliseconds) is the same report.
    const json = await call("/api/ingest/osmand", {
      method: "POST",
      json: {
        device_id: beacon!.id,
        location: [
          { timestamp: T0, coords: { latitude: 40, longitude: -100 } },
          { timestamp: T0, coords: { latitude: 40, longitude: -100 } },
        ],
      },
    });
    expect(((await json.json()) as { outcomes: string[] }).outcomes).toEqual(["duplicate", "duplicate"]);
    expect(await storedPositions(beacon!.id)).toHaveLength(1);
  });

  it("keeps a late report in the history without moving the vehicle back", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    await osmand({ id: beacon!.id, lat: 40.5, lon: -100, timestamp: T0 / 1000 + 60 });
    await osmand({ id: beacon!.id, lat: 40.0, lon: -100, timestamp: T0 / 1000 });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 40.5, recordedAt: T0 + 60_000 });
    expect(await storedPositions(beacon!.id)).toHaveLength(2);
  });

  it("writes only into the beacon's own workspace", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [beaconA] = await order(a.token, a.workspaceId);
    const [beaconB] = await order(b.token, b.workspaceId);
    const before = await versionOf(b.workspaceId);
    // Whatever else the report claims, the device id alone decides where it goes.
    await osmand({
      id: beaconA!.id,
      lat: 40,
      lon: -100,
      workspaceId: b.workspaceId,
      vehicleId: beaconB!.vehicleId,
      deviceid: beaconB!.id,
    });
    expect(await telemetryOf(beaconA!.vehicleId)).toMatchObject({ workspaceId: a.workspaceId });
    expect(await telemetryOf(beaconB!.vehicleId)).toBeUndefined();
    expect(await versionOf(b.workspaceId)).toBe(before);
    const rows = await db().select().from(telemetry).where(eq(telemetry.workspaceId, b.workspaceId)).all();
    expect(rows).toEqual([]);
  });

  it("keeps statusTimestamp at the start of the current status", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    await osmand({ id: beacon!.id, lat: 40, lon: -100, timestamp: T0 / 1000, ignition: "false" });
    await osmand({ id: beacon!.id, lat: 40, lon: -100, timestamp: T0 / 1000 + 60, ignition: "false" });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ status: "off", statusTimestamp: T0 });
    await osmand({ id: beacon!.id, lat: 40, lon: -100, timestamp: T0 / 1000 + 120, ignition: "true" });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ status: "idle", statusTimestamp: T0 + 120_000 });
  });

  it("marks beacons silent for 15 minutes INACTIVE (the workspace object's alarm task, no cron)", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    await osmand({ id: beacon!.id, lat: 40, lon: -100 });
    const statusOf = async () =>
      (await db().select().from(vehicles).where(eq(vehicles.id, beacon!.vehicleId)).get())!.beaconStatus;
    await runObjectTasks(a.workspaceId, Date.now() + 60_000);
    expect(await statusOf()).toBe("ACTIVE");
    await runObjectTasks(a.workspaceId, Date.now() + 16 * 60_000);
    expect(await statusOf()).toBe("INACTIVE");
    // Reporting again makes it ACTIVE again, in a version clients pull.
    const version = await versionOf(a.workspaceId);
    await osmand({ id: beacon!.id, lat: 40.001, lon: -100 });
    const back = (await db().select().from(vehicles).where(eq(vehicles.id, beacon!.vehicleId)).get())!;
    expect(back.beaconStatus).toBe("ACTIVE");
    expect(back.version).toBeGreaterThan(version);
  });
});
