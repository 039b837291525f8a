import { env } from "cloudflare:workers";
import { asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { telemetryKey } from "../../shared/fleet/telemetry";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { SYNCED_EVENTS_PER_VEHICLE } from "../../shared/fleet/vehicle-event";
import { database } from "../../db/client";
import { telemetry, vehicleEvents, vehicles, workspaces } from "../../db/schema";
import { storedPositions } from "../test/positions";
import { call, report, userWithWorkspace } from "../test/factories";
import commute from "./fixtures/commute";
import { readTrack } from "./fixtures/csv-track";
import { ingest, ingestRequests } from "../test/ingest";
import type { MotionReport } from "../../domain/fold/motion";

const db = () => database(env.DB);
const T0 = Date.parse("2026-11-03T08:00:00Z");

async function order(token: string, workspaceId: string, count: number) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; vehicleId: string }[];
}

const osmand = (params: Record<string, string | number>) =>
  call(`/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);

const versionOf = async (id: string) =>
  (await db().select().from(workspaces).where(eq(workspaces.id, id)).get())!.version;
const positionsOf = (beaconId: string) => storedPositions(beaconId);
const telemetryOf = (vehicleId: string) =>
  db().select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get();

async function pull(token: string, clientGroupID: string, cookie: { order: number } | null) {
  const res = await call("/api/sync/pull", {
    method: "POST",
    token,
    json: { pullVersion: 1, clientGroupID, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    cookie: { order: number };
    patch: { op: string; key?: string; value?: Record<string, unknown> }[];
  };
}

describe("concurrent beacon requests", () => {
  it("are each answered and stored once, in their own workspace, and announced to pulls", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [a1, a2, a3] = await order(a.token, a.workspaceId, 3);
    const [b1, b2] = await order(b.token, b.workspaceId, 2);
    const groupA = crypto.randomUUID();
    const groupB = crypto.randomUUID();
    const beforeA = await pull(a.token, groupA, null);
    const beforeB = await pull(b.token, groupB, null);
    const s = T0 / 1000;

    const [a1Early, a1Later, a2Json, a3Get, b1First, b1Again, b2Get, unknown] = await Promise.all([
      osmand({ id: a1!.id, lat: 40.1, lon: -100, timestamp: s, speed: 0, ignition: "true" }),
      osmand({ id: a1!.id, lat: 40.2, lon: -100, timestamp: s + 10, speed: 20, ignition: "true" }),
      call("/api/ingest/osmand", {
        method: "POST",
        json: {
          device_id: a2!.id,
          location: [
            {
              timestamp: T0 + 5_000,
              coords: { latitude: 41.01, longitude: -101, speed: 10 },
              extras: { ignition: true },
            },
            { timestamp: T0, coords: { latitude: 41, longitude: -101, speed: 10 }, extras: { ignition: true } },
          ],
        },
      }),
      osmand({ id: a3!.id, lat: 42, lon: -102, timestamp: s, ignition: "false" }),
      osmand({ id: b1!.id, lat: 43, lon: -103, timestamp: s, ignition: "false" }),
      osmand({ id: b1!.id, lat: 43, lon: -103, timestamp: s, ignition: "false" }),
      osmand({ id: b2!.id, lat: 44, lon: -104, timestamp: s + 30, speed: 30, ignition: "true" }),
      osmand({ id: "no-such-beacon-in-any-workspace", lat: 1, lon: 2, timestamp: s }),
    ]);

    // Every request gets its own answer; the unknown device's 400 fails no one else.
    const outcomes = async (res: Response) => {
      expect(res.status).toBe(200);
      return ((await res.json()) as { outcomes: string[] }).outcomes;
    };
    // a1's two reports arrive together: whichever goes first, the earlier is never shown over the later.
    expect(
      [...(await outcomes(a1Early)), ...(await outcomes(a1Later))].every((o) => o === "stored" || o === "late"),
    ).toBe(true);
    expect(await outcomes(a2Json)).toEqual(["stored", "stored"]);
    expect(await outcomes(a3Get)).toEqual(["stored"]);
    expect([...(await outcomes(b1First)), ...(await outcomes(b1Again))].sort()).toEqual(["duplicate", "stored"]);
    expect(await outcomes(b2Get)).toEqual(["stored"]);
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("Unknown device id");

    // Every position once, in its beacon's workspace.
    expect((await positionsOf(a1!.id)).map((p) => p.recordedAt).sort()).toEqual([T0, T0 + 10_000]);
    expect((await positionsOf(a2!.id)).map((p) => p.recordedAt).sort()).toEqual([T0, T0 + 5_000]);
    expect(await positionsOf(a3!.id)).toHaveLength(1);
    expect(await positionsOf(b1!.id)).toHaveLength(1);
    expect(await positionsOf(b2!.id)).toHaveLength(1);
    // Each workspace's object holds its own beacons' positions, and none of the other's.
    expect(await storedPositions(a1!.id, b.workspaceId)).toEqual([]);
    expect(await storedPositions(b1!.id, a.workspaceId)).toEqual([]);

    // Telemetry ends at each vehicle's latest report, whichever of a1's two requests went first.
    expect(await telemetryOf(a1!.vehicleId)).toMatchObject({
      workspaceId: a.workspaceId,
      latitude: 40.2,
      recordedAt: T0 + 10_000,
      status: "moving",
    });
    expect(await telemetryOf(a2!.vehicleId)).toMatchObject({ latitude: 41.01, recordedAt: T0 + 5_000 });
    expect(await telemetryOf(b1!.vehicleId)).toMatchObject({ workspaceId: b.workspaceId, latitude: 43, status: "off" });
    expect(await telemetryOf(b2!.vehicleId)).toMatchObject({ workspaceId: b.workspaceId, status: "moving" });
    const ids = [a1, a2, a3, b1, b2].map((x) => x!.vehicleId);
    const active = await db().select().from(vehicles).where(inArray(vehicles.id, ids)).all();
    expect(active.map((v) => v.beaconStatus)).toEqual(ids.map(() => "ACTIVE"));

    // Each workspace moved on, and a pull from the cookie before brings exactly its own changes.
    const afterA = await pull(a.token, groupA, beforeA.cookie);
    const afterB = await pull(b.token, groupB, beforeB.cookie);
    expect(afterA.cookie.order).toBeGreaterThan(beforeA.cookie.order);
    expect(afterB.cookie.order).toBeGreaterThan(beforeB.cookie.order);
    const puts = (p: typeof afterA) => p.patch.filter((op) => op.op === "put").map((op) => op.key!);
    for (const x of [a1, a2, a3])
      expect(puts(afterA)).toEqual(expect.arrayContaining([vehicleKey(x!.vehicleId), telemetryKey(x!.vehicleId)]));
    for (const x of [b1, b2])
      expect(puts(afterB)).toEqual(expect.arrayContaining([vehicleKey(x!.vehicleId), telemetryKey(x!.vehicleId)]));
    const mentionsOf = (p: typeof afterA, vehicleIds: string[]) =>
      p.patch.filter((op) => vehicleIds.some((v) => op.key?.includes(v)));
    expect(mentionsOf(afterA, [b1!.vehicleId, b2!.vehicleId])).toEqual([]);
    expect(mentionsOf(afterB, [a1!.vehicleId, a2!.vehicleId, a3!.vehicleId])).toEqual([]);
    expect(
      decodeSyncedValue(
        telemetryKey(a1!.vehicleId),
        afterA.patch.find((op) => op.key === telemetryKey(a1!.vehicleId))!.value,
      ),
    ).toMatchObject({ latitude: 40.2 });
  });
});

describe("one call into a workspace's object", () => {
  it("takes several requests in one write: one version bump, the same outcomes as one by one, and only its own workspace's devices", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const [a1, a2, a3] = await order(a.token, a.workspaceId, 3);
    const [b1] = await order(b.token, b.workspaceId, 1);
    // a2 already reported at T0 + 60 s: anything older is late.
    await ingest([report(a2!.id, T0 + 60_000, { latitude: 41 })]);
    const before = { a: await versionOf(a.workspaceId), b: await versionOf(b.workspaceId) };

    const answers = await ingestRequests([
      [report(a1!.id, T0 + 20_000, { latitude: 40.2 })],
      [report("unknown-device", T0)],
      [report(a1!.id, T0 + 10_000, { latitude: 40.1 }), report(a1!.id, T0, { latitude: 40 })],
      [report(a3!.id, T0, { latitude: 43 }), report(a3!.id, T0, { latitude: 43 })],
      [report(a2!.id, T0, { latitude: 40.5 })],
      // Another workspace's device sent to this workspace's object: unknown here, nothing written.
      [report(b1!.id, T0, { latitude: 44 })],
    ]);
    const outcomes = answers.map((x) => (x.ok ? x.outcomes : "unknown"));
    // Taken after T0 + 20 s was stored, as if it had come second on its own.
    expect(outcomes).toEqual([["stored"], "unknown", ["late", "late"], ["stored", "duplicate"], ["late"], "unknown"]);

    expect(await versionOf(a.workspaceId)).toBe(before.a + 1);
    expect(await versionOf(b.workspaceId)).toBe(before.b);
    expect(await telemetryOf(a1!.vehicleId)).toMatchObject({
      latitude: 40.2,
      recordedAt: T0 + 20_000,
      version: before.a + 1,
    });
    expect(await telemetryOf(a2!.vehicleId)).toMatchObject({ latitude: 41, recordedAt: T0 + 60_000 });
    expect(await telemetryOf(a3!.vehicleId)).toMatchObject({ version: before.a + 1 });
    expect(await telemetryOf(b1!.vehicleId)).toBeUndefined();
    expect((await positionsOf(a1!.id)).map((p) => p.recordedAt).sort()).toEqual([T0, T0 + 10_000, T0 + 20_000]);
    expect(await positionsOf(a2!.id)).toHaveLength(2);
    expect(await positionsOf(a3!.id)).toHaveLength(1);
    expect(await positionsOf(b1!.id)).toEqual([]);
  });

  /** Errands: seven drives of about 1 km, each followed by a 5-minute stop (15 events). */
  function errands(): MotionReport[] {
    const track: MotionReport[] = [];
    let t = T0;
    let latitude = 40;
    for (let k = 0; k < 7; k++) {
      for (let i = 0; i < 6; i++, t += 60_000)
        track.push({ latitude, longitude: -100, time: t, speed: 0, ignition: true });
      for (let i = 0; i < 4; i++, t += 30_000)
        track.push({ latitude: (latitude += 0.0025), longitude: -100, time: t, speed: 15, ignition: true });
    }
    for (let i = 0; i < 6; i++, t += 60_000)
      track.push({ latitude, longitude: -100, time: t, speed: 0, ignition: false });
    return track;
  }

  it.each([
    // A commute makes 5 events; the synced set keeps the newest SYNCED_EVENTS_PER_VEHICLE (3).
    ["a commute", () => readTrack(commute), Math.min(5, SYNCED_EVENTS_PER_VEHICLE)],
    ["errands, with old events leaving the synced set", errands, SYNCED_EVENTS_PER_VEHICLE],
  ])(
    "chains one vehicle's reports through the detector exactly as one request at a time does: %s",
    async (_name, track, shownEvents) => {
      const a = await userWithWorkspace();
      const [alone, together] = await order(a.token, a.workspaceId, 2);
      const reports = track();
      const stopsAlone: { latitude: number; longitude: number }[] = [];
      for (const r of reports) stopsAlone.push(...(await ingest([{ ...report(alone!.id, r.time), ...r }])).stops);
      const stopsTogether: typeof stopsAlone = [];
      // The same track in batches of requests of a few reports each.
      const requests = reports.map((r) => ({ ...report(together!.id, r.time), ...r }));
      for (let i = 0; i < requests.length; i += 12) {
        const answers = await ingestRequests(
          [requests.slice(i, i + 5), requests.slice(i + 5, i + 7), requests.slice(i + 7, i + 12)].filter(
            (r) => r.length,
          ),
        );
        for (const x of answers) {
          expect(x.ok && x.outcomes.every((o) => o === "stored")).toBe(true);
          if (x.ok) stopsTogether.push(...x.stops);
        }
      }
      // The geocoder is handed the same new stops, each by the request that opened it.
      const places = (stops: typeof stopsAlone) => stops.map(({ latitude, longitude }) => ({ latitude, longitude }));
      expect(stopsAlone.length).toBeGreaterThan(1);
      expect(places(stopsTogether)).toEqual(places(stopsAlone));
      const timeline = async (vehicleId: string) =>
        (
          await db()
            .select()
            .from(vehicleEvents)
            .where(eq(vehicleEvents.vehicleId, vehicleId))
            .orderBy(asc(vehicleEvents.startTime))
            .all()
        ).map((e) => ({
          type: e.type,
          startTime: e.startTime,
          endTime: e.endTime,
          distance: e.distance,
          deleted: e.deleted,
        }));
      const expected = await timeline(alone!.vehicleId);
      expect(expected.filter((e) => !e.deleted)).toHaveLength(shownEvents);
      expect(expected.length).toBeGreaterThanOrEqual(shownEvents);
      expect(await timeline(together!.vehicleId)).toEqual(expected);
      const {
        id: _1,
        vehicleId: _2,
        version: _3,
        createdVersion: _4,
        ...shown
      } = (await telemetryOf(alone!.vehicleId))!;
      expect(await telemetryOf(together!.vehicleId)).toMatchObject(shown);
    },
    60_000,
  );
});
