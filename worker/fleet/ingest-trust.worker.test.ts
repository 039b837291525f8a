import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { BeaconHealth } from "../../shared/fleet/beacon-health";
import { database } from "../../db/client";
import { beacons, telemetry, vehicleEvents } from "../../db/schema";
import { storedPositions } from "../test/positions";
import { call, report as positionReport, userWithWorkspace } from "../test/factories";
import phoneDrive, { ROUTE_METRES } from "./fixtures/phone-drive";
import { ingest, vehicleState } from "../test/ingest";
import type { Report } from "../../domain/devices/osmand";

const db = () => database(env.DB);
const HOUR = 3_600_000;
const YEAR = 365 * 24 * HOUR;
const MPH = 2.236936;

async function order(token: string, workspaceId: string, count = 1) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string }[];
}

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
const osmand = (params: Record<string, string | number>, init: RequestInit = {}) =>
  call(`/api/ingest/osmand?${query(params)}`, init);
const jsonReports = (deviceId: string, times: number[], headers: Record<string, string> = {}) =>
  call("/api/ingest/osmand", {
    method: "POST",
    headers,
    json: {
      device_id: deviceId,
      location: times.map((t, i) => ({ timestamp: t, coords: { latitude: 40 + i * 1e-5, longitude: -100, speed: 5 } })),
    },
  });
const telemetryOf = (vehicleId: string) =>
  db().select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get();
const eventsOf = (vehicleId: string) =>
  db()
    .select()
    .from(vehicleEvents)
    .where(eq(vehicleEvents.vehicleId, vehicleId))
    .orderBy(asc(vehicleEvents.startTime))
    .all();

async function health(token: string, vehicleId: string) {
  const res = await call(`/api/beacons/${vehicleId}/health`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as BeaconHealth;
}

/** Reports in Chicago, where the phone track drives. */
const report = (deviceId: string, time: number, fields: Partial<Report> = {}): Report =>
  positionReport(deviceId, time, { latitude: 41.88, longitude: -87.63, ...fields });

describe("a real phone track, replayed as Traccar Client sends it", () => {
  it("gives one trip of the route's length and a GPS odometer close to it, with no odometer from the device", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const [header, ...lines] = phoneDrive.trim().split("\n");
    const columns = header!.split(",");
    for (const line of lines) {
      // The report in the query string of a POST with no body, course as `heading`, as the app does.
      const params = Object.fromEntries(line.split(",").flatMap((v, i) => (v === "" ? [] : [[columns[i]!, v]])));
      const res = await call(`/api/ingest/osmand?${query({ id: beacon!.id, ...params })}`, { method: "POST" });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { outcomes: string[] }).outcomes).toEqual(["stored"]);
    }

    const events = await eventsOf(beacon!.vehicleId);
    expect(events.map((e) => e.type)).toEqual(["STOP", "TRANSIT", "STOP"]);
    const trip = events[1]!;
    // Along the streets it is 6.4 km; the detector measures fix to fix, so GPS noise adds a little.
    expect(trip.distance!).toBeGreaterThan(ROUTE_METRES * 0.97);
    expect(trip.distance!).toBeLessThan(ROUTE_METRES * 1.06);
    expect(trip.averageSpeed! * MPH).toBeGreaterThan(15);
    expect(trip.averageSpeed! * MPH).toBeLessThan(30);

    // The odometer is the GPS distance, with the jitter while parked and at red lights left out.
    const t = (await telemetryOf(beacon!.vehicleId))!;
    expect(t.odometer).not.toBeNull();
    expect(Math.abs(t.odometer! - ROUTE_METRES)).toBeLessThan(ROUTE_METRES * 0.03);
  }, 60_000); // ~200 requests one after another, as the phone sends them: slow on a loaded machine
});

describe("device clocks", () => {
  it("acknowledges a report ten years ahead but never shows it; genuine reports after it still move the vehicle", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const now = Date.now();
    const first = await osmand({ id: beacon!.id, lat: 41.88, lon: -87.63, timestamp: now - 60_000, speed: 0 });
    expect(await first.json()).toMatchObject({ outcomes: ["stored"] });

    const future = await osmand({
      id: beacon!.id,
      lat: 10,
      lon: 10,
      timestamp: Math.round((now + 10 * YEAR) / 1000),
      speed: 0,
    });
    expect(future.status).toBe(200);
    expect(await future.json()).toMatchObject({ ok: true, outcomes: ["clock_ahead"] });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 41.88, recordedAt: now - 60_000 });
    // Not kept either: it would sit at the end of every history query for ten years.
    expect(await storedPositions(beacon!.id)).toHaveLength(1);

    // The next genuine report moves the vehicle: it is not "late" behind the future one.
    const genuine = await osmand({ id: beacon!.id, lat: 41.89, lon: -87.63, timestamp: now, speed: 0 });
    expect(await genuine.json()).toMatchObject({ outcomes: ["stored"] });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 41.89, recordedAt: now });

    // A few minutes ahead is within the bound (5 minutes): used, and the skew shown.
    const ahead = await osmand({ id: beacon!.id, lat: 41.9, lon: -87.63, timestamp: now + 4 * 60_000, speed: 0 });
    expect(await ahead.json()).toMatchObject({ outcomes: ["stored"] });

    const h = await health(a.token, beacon!.vehicleId);
    expect(h.rejected).toEqual({ clock_ahead: 1, too_old: 0, throttled: 0, no_position: 0 });
    expect(h.lastRejectedReason).toBe("clock_ahead");
    expect(h.lastRejectedAt).toBeGreaterThanOrEqual(now);
    // The last skew seen is the 4-minute one (the server's clock moved a little since `now`).
    expect(h.clockSkewMs!).toBeGreaterThan(3 * 60_000);
    expect(h.clockSkewMs!).toBeLessThanOrEqual(4 * 60_000);
    expect(h.lastReportAt).toBeGreaterThanOrEqual(now);
    expect(h.reportsToday).toBeGreaterThanOrEqual(2); // three stored, two of them surely today (UTC) unless run at midnight
  });

  it("counts a report older than the latest as history, not as a rejection", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const now = Date.now();
    await osmand({ id: beacon!.id, lat: 41.88, lon: -87.63, timestamp: now });
    const late = await osmand({ id: beacon!.id, lat: 41.7, lon: -87.63, timestamp: now - HOUR });
    expect(await late.json()).toMatchObject({ outcomes: ["late"] });
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 41.88 });
    expect(await storedPositions(beacon!.id)).toHaveLength(2);
    expect((await health(a.token, beacon!.vehicleId)).rejected).toEqual({
      clock_ahead: 0,
      too_old: 0,
      throttled: 0,
      no_position: 0,
    });
  });

  it("takes its bounds from ingestion's options (INGEST_MAX_AHEAD_S, INGEST_MAX_BEHIND_S)", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const now = Date.now();
    const clock = { maxAheadMs: 60_000, maxBehindMs: 24 * HOUR };
    const result = await ingest(
      [report(beacon!.id, now + 2 * 60_000), report(beacon!.id, now - 2 * 24 * HOUR), report(beacon!.id, now)],
      { now, clock },
    );
    expect(result.outcomes).toEqual(["too_old", "stored", "clock_ahead"]);
    expect((await health(a.token, beacon!.vehicleId)).rejected).toEqual({
      clock_ahead: 1,
      too_old: 1,
      throttled: 0,
      no_position: 0,
    });
  });
});

describe("odometer", () => {
  it("is the device's own when it sends one, and the GPS distance otherwise", async () => {
    const a = await userWithWorkspace();
    const [phone, obd] = await order(a.token, a.workspaceId, 2);
    const t0 = Date.now() - HOUR;
    const east = (km: number) => -87.63 + km / (111.32 * Math.cos((41.88 * Math.PI) / 180));
    // 1 km east every 2 minutes (30 km/h), accuracy 5 m.
    for (let k = 0; k <= 3; k++) {
      await ingest([report(phone!.id, t0 + k * 120_000, { longitude: east(k), accuracy: 5, speed: 8 })]);
      await ingest([
        report(obd!.id, t0 + k * 120_000, { longitude: east(k), accuracy: 5, speed: 8, odometer: 250_000 + k * 1_100 }),
      ]);
    }
    expect((await telemetryOf(phone!.vehicleId))!.odometer).toBeCloseTo(3_000, -1);
    expect((await telemetryOf(obd!.vehicleId))!.odometer).toBe(253_300);
    // A device that once sent its odometer keeps its last value when a report lacks it.
    await ingest([report(obd!.id, t0 + 4 * 120_000, { longitude: east(4), accuracy: 5, speed: 8 })]);
    expect((await telemetryOf(obd!.vehicleId))!.odometer).toBe(253_300);
  });

  it("ignores jitter within the fix's accuracy and jumps no vehicle could make", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const t0 = Date.now() - HOUR;
    const at = (metresNorth: number) => 41.88 + metresNorth / 111_320;
    const fixes: [number, number, number][] = [
      // [seconds, metres north, accuracy]: parked with 15 m of wander at 20 m accuracy...
      [0, 0, 20],
      [10, 15, 20],
      [20, -5, 20],
      [30, 8, 20],
      // ...a glitch 30 km away for one fix, then back...
      [40, 30_000, 20],
      [50, 0, 20],
      // ...then 500 m north in 60 s, and 500 m more.
      [110, 500, 5],
      [170, 1_000, 5],
    ];
    for (const [s, north, accuracy] of fixes)
      await ingest([report(beacon!.id, t0 + s * 1000, { latitude: at(north), accuracy })]);
    const odometer = (await telemetryOf(beacon!.vehicleId))!.odometer!;
    expect(odometer).toBeGreaterThan(990);
    expect(odometer).toBeLessThan(1_010);
  });
});

describe("one writer per vehicle", () => {
  it("two concurrent calls for one vehicle end as if applied one by one, in the order its object took them", async () => {
    const a = await userWithWorkspace();
    const [raced, reference] = await order(a.token, a.workspaceId, 2);
    const t0 = Date.now() - HOUR;
    const north = (km: number) => 41.88 + km / 111.32;
    // Driving north: 1 km a minute. Report B is older than report A; both follow r0.
    const r0 = (id: string) => report(id, t0, { latitude: north(0), speed: 16, accuracy: 5 });
    const rB = (id: string) => report(id, t0 + 60_000, { latitude: north(1), speed: 16, accuracy: 5 });
    const rA = (id: string) => report(id, t0 + 120_000, { latitude: north(2), speed: 16, accuracy: 5 });

    await ingest([r0(raced!.id)]);
    // Two isolates send one report each at the same moment: the workspace's object is the one
    // writer of the vehicle, so one of them folds first and the other folds on its result.
    const [answerB] = await Promise.all([ingest([rB(raced!.id)]), ingest([rA(raced!.id)])]);
    const order2 = answerB.outcomes[0] === "stored" ? [r0, rB, rA] : [r0, rA, rB];
    for (const r of order2) await ingest([r(reference!.id)]);

    const stateOf = async (vehicleId: string) => {
      const m = (await vehicleState(a.workspaceId, vehicleId))!;
      const t = (await telemetryOf(vehicleId))!;
      const events = (await eventsOf(vehicleId)).map((e) => ({
        type: e.type,
        start: e.startTime,
        end: e.endTime,
        distance: e.distance,
      }));
      const detector = m.motion as unknown as {
        mode: string;
        last: unknown;
        anchor: unknown;
        current: { distance: number; type: string };
      };
      return {
        detector: {
          mode: detector.mode,
          last: detector.last,
          anchor: detector.anchor,
          distance: detector.current.distance,
          type: detector.current.type,
        },
        odometer: t.odometer,
        at: [t.latitude, t.recordedAt, t.status, t.statusTimestamp],
        events,
      };
    };
    expect(await stateOf(raced!.vehicleId)).toEqual(await stateOf(reference!.vehicleId));
    expect((await storedPositions(raced!.id)).map((p) => p.recordedAt)).toEqual([t0, t0 + 60_000, t0 + 120_000]);
  });
});

describe("throttling", () => {
  it("takes a tracker's buffered burst, then answers 429 with Retry-After, and counts the refused reports on its health", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const t0 = Date.now() - 10 * HOUR;
    const times = (from: number, n: number) => Array.from({ length: n }, (_, i) => t0 + (from + i) * 1000);
    const headers = { "CF-Connecting-IP": "198.51.100.7" };
    // 900 buffered reports, 500 then 400: fine.
    expect((await jsonReports(beacon!.id, times(0, 500), headers)).status).toBe(200);
    expect((await jsonReports(beacon!.id, times(500, 400), headers)).status).toBe(200);
    // 500 more at once: past the burst (1,000).
    const refused = await jsonReports(beacon!.id, times(900, 500), headers);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited" } });
    // A refused request costs nothing: the tracker's next single report goes through.
    const next = await osmand({ id: beacon!.id, lat: 40, lon: -100, timestamp: t0 + 3_000_000 }, { headers });
    expect(next.status).toBe(200);
    const h = await health(a.token, beacon!.vehicleId);
    expect(h.rejected.throttled).toBe(500);
    expect(h.lastRejectedReason).toBe("throttled");
    expect(await storedPositions(beacon!.id)).toHaveLength(901);
  });

  it("limits a source address (IPv6 by its /64) and refuses an unknown id from memory", async () => {
    const unknownId = `unknown-${crypto.randomUUID()}`;
    const from = (ip: string) => ({ "CF-Connecting-IP": ip });
    const t0 = Date.now() - 10 * HOUR;
    const batch = Array.from({ length: 500 }, (_, i) => t0 + i * 1000);
    // 6,000 reports of unknown devices from one /64: each refused 400, none throttled yet...
    for (let i = 0; i < 12; i++) {
      const res = await jsonReports(`${unknownId}-${i}`, batch, from(`2001:db8:aa:bb::${i + 1}`));
      expect(res.status).toBe(400);
    }
    // ...then any address of that /64 is throttled; another /64 is not.
    expect((await jsonReports(`${unknownId}-x`, batch, from("2001:db8:aa:bb:ffff::9"))).status).toBe(429);
    expect((await jsonReports(`${unknownId}-x`, batch, from("2001:db8:aa:cc::1"))).status).toBe(400);

    // An id answered unknown is refused from memory: even once it exists, D1 is not asked again
    // for a while (a rotated-out id stays refused; a new id is never one an attacker tried).
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const probe = `probe-${crypto.randomUUID()}`;
    expect((await osmand({ id: probe, lat: 40, lon: -100 })).status).toBe(400);
    await db().update(beacons).set({ id: probe }).where(eq(beacons.id, beacon!.id));
    const again = await osmand({ id: probe, lat: 40, lon: -100 });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: { message: "Unknown device id" } });
  });

  it("bounds the reports and the bytes of one request", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const res = await jsonReports(
      beacon!.id,
      Array.from({ length: 501 }, (_, i) => Date.now() - HOUR + i * 1000),
    );
    expect(res.status).toBe(400);
    const huge = await call("/api/ingest/osmand", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        device_id: beacon!.id,
        location: { coords: { latitude: 40, longitude: -100 } },
        padding: "x".repeat(600 * 1024),
      }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await storedPositions(beacon!.id)).toEqual([]);
  });
});

describe("device id rotation and beacon health", () => {
  it("gives the beacon a new id: the old one answers 400 from then on, the new one 200", async () => {
    const a = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    const now = Date.now();
    expect((await osmand({ id: beacon!.id, lat: 40, lon: -100, timestamp: now - 1000 })).status).toBe(200);

    const log = vi.spyOn(console, "log");
    const res = await call(`/api/beacons/${beacon!.vehicleId}/device-id`, { method: "POST", token: a.token });
    expect(res.status).toBe(200);
    const rotation = (await res.json()) as { deviceId: string; ingestUrl: string };
    // Audited by database ids, never by the device ids (either is a credential).
    const lines = log.mock.calls
      .map((args) => String(args[0]))
      .filter((line) => line.includes("beacon.device_id_rotated"));
    log.mockRestore();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      audit: true,
      event: "beacon.device_id_rotated",
      workspaceId: a.workspaceId,
      vehicleId: beacon!.vehicleId,
      userId: a.userId,
    });
    expect(lines[0]).not.toContain(beacon!.id);
    expect(lines[0]).not.toContain(rotation.deviceId);
    expect(rotation.deviceId).toMatch(/^[\w-]{32}$/);
    expect(rotation.deviceId).not.toBe(beacon!.id);
    expect(rotation.ingestUrl).toMatch(/\/api\/ingest\/osmand$/);

    const old = await osmand({ id: beacon!.id, lat: 41, lon: -100, timestamp: now });
    expect(old.status).toBe(400);
    expect(await old.json()).toMatchObject({ error: { message: "Unknown device id" } });
    const fresh = await osmand({ id: rotation.deviceId, lat: 42, lon: -100, timestamp: now });
    expect(fresh.status).toBe(200);
    // The vehicle goes on: same vehicle, same history, the new id's report on top.
    expect(await telemetryOf(beacon!.vehicleId)).toMatchObject({ latitude: 42 });
    const h = await health(a.token, beacon!.vehicleId);
    expect(h).toMatchObject({ deviceId: rotation.deviceId, ingestUrl: rotation.ingestUrl });
    expect(h.rotatedAt).toBeGreaterThanOrEqual(now);
    expect(h.reportsToday).toBeGreaterThanOrEqual(1);
  });

  it("is another workspace's business only: its health and its rotation are 404, and nothing changes", async () => {
    const a = await userWithWorkspace();
    const intruder = await userWithWorkspace();
    const [beacon] = await order(a.token, a.workspaceId);
    expect((await call(`/api/beacons/${beacon!.vehicleId}/health`, { token: intruder.token })).status).toBe(404);
    expect(
      (await call(`/api/beacons/${beacon!.vehicleId}/device-id`, { method: "POST", token: intruder.token })).status,
    ).toBe(404);
    expect((await call(`/api/beacons/${beacon!.vehicleId}/device-id`, { method: "POST" })).status).toBe(401);
    expect((await health(a.token, beacon!.vehicleId)).deviceId).toBe(beacon!.id);
    const bad = await call(`/api/beacons/${beacon!.vehicleId}/health?since=yesterday`, { token: a.token });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_input" } });
  });
});
