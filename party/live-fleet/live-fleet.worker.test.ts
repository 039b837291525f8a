import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { telemetryKey } from "../../shared/fleet/telemetry";
import type { Db } from "../../db/client";
import { bumpVersion, database, versionOf as stampOf } from "../../worker/test/db";
import { beacons, telemetry, vehicleDayRollups, workspaces } from "../../db/schema";
import { call, report, workspaceWithBeacons } from "../../worker/test/factories";
import { ingestRequests, roomOf } from "../../worker/test/ingest";
import { storedPositions } from "../../worker/test/positions";
import { d1LegacyPositions } from "../positions/legacy";
import { PositionStore } from "../positions/store";
import type { WorkspaceRoom } from "../../worker/workspace-room";
import { flushStatements } from "./flush-batch";
import { LiveFleet } from "./live-fleet";
import { LiveStore } from "./live-store";
import { withRoomParts } from "../../worker/test/room-parts";

// The workspace object as the writer of its live fleet (docs/decisions/0016, parts 4 to 6): an
// answer means the reports are in its storage, D1 follows in a flush that survives a restart, and
// pulls see what is not flushed yet.
const db = () => database(env.DB);
const T0 = Date.now() - 3_600_000;
const LATER = 60_000; // a flush interval no test waits for: only the alarm or a pull flushes

const positionsOf = (beaconId: string) => storedPositions(beaconId);
/** The workspace's live fleet as a new instance over the object's storage would load it (a restart). */
const restartedFleet = (storage: DurableObjectStorage, workspaceId: string, d1: () => Db = db) =>
  new LiveFleet(
    storage,
    workspaceId,
    d1,
    () => new PositionStore(storage, env.POSITIONS, workspaceId, d1LegacyPositions(db(), workspaceId)),
  );
const telemetryOf = (vehicleId: string) =>
  db().select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get();
const versionOf = async (id: string) =>
  (await db().select().from(workspaces).where(eq(workspaces.id, id)).get())!.version;

/** A D1 client whose transactions all fail (D1 unreachable mid-flush). */
const unreachable = (): Db =>
  Object.assign(Object.create(db()) as Db, { batch: () => Promise.reject(new Error("D1 unreachable")) });

describe("the acknowledgement", () => {
  it("comes once the reports are in the object's storage: a new instance over it (a restart) holds them and flushes them to D1", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    const [answer] = await ingestRequests(
      [[report(b!.id, T0, { latitude: 41 }), report(b!.id, T0 + 5_000, { latitude: 41.01 })]],
      { flushMs: LATER },
    );
    expect(answer).toMatchObject({ ok: true, outcomes: ["stored", "stored"] });
    // Acknowledged: the positions are in the object's store, the telemetry not in D1 yet.
    expect((await positionsOf(b!.id)).map((p) => p.recordedAt)).toEqual([T0, T0 + 5_000]);
    expect(await telemetryOf(b!.vehicleId)).toBeUndefined();

    await runInDurableObject(roomOf(workspaceId), async (_room: WorkspaceRoom, state) => {
      // Memory is gone after a restart: what the object knows comes from its storage alone.
      const restarted = restartedFleet(state.storage, workspaceId);
      expect(restarted.vehicle(b!.vehicleId)?.latest).toMatchObject({ latitude: 41.01, recordedAt: T0 + 5_000 });
      expect(restarted.hasPending()).toBe(true);
      expect(await restarted.flush()).toBe(true);
      expect(restarted.hasPending()).toBe(false);
    });
    expect(await telemetryOf(b!.vehicleId)).toMatchObject({ latitude: 41.01, version: await versionOf(workspaceId) });
  });
});

describe("the flush", () => {
  it("cut short keeps everything pending; run again after a restart it writes it all once, beacon health included", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    // One report stored, one ten years ahead (acknowledged, counted on the beacon's health).
    await ingestRequests([[report(b!.id, T0), report(b!.id, Date.now() + 10 * 365 * 86_400_000)]], { flushMs: LATER });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await runInDurableObject(roomOf(workspaceId), async (_room: WorkspaceRoom, state) => {
      await expect(restartedFleet(state.storage, workspaceId, unreachable).flush()).rejects.toThrow("D1 unreachable");
      const restarted = restartedFleet(state.storage, workspaceId);
      expect(restarted.hasPending()).toBe(true);
      await restarted.flush();
    });
    error.mockRestore();
    expect(await positionsOf(b!.id)).toHaveLength(1);
    const beacon = await db().select().from(beacons).where(eq(beacons.id, b!.id)).get();
    expect(beacon).toMatchObject({ rejectedClockAhead: 1, lastRejectedReason: "clock_ahead" });
    expect(beacon!.lastReportAt).not.toBeNull();
  });

  it("committed but not dropped (killed in between) writes the same rows again: health is absolute, nothing counts twice", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    await ingestRequests([[report(b!.id, T0), report(b!.id, Date.now() + 10 * 365 * 86_400_000)]], { flushMs: LATER });
    await runInDurableObject(roomOf(workspaceId), async (_room: WorkspaceRoom, state) => {
      // The flush's D1 transaction commits, then the object dies before it drops what it wrote...
      const pending = new LiveStore(state.storage).pending();
      const statements = flushStatements(db(), stampOf(workspaceId), workspaceId, pending);
      await db().batch([bumpVersion(db(), workspaceId), ...statements]);
      // ...so the restarted object flushes the same entries again.
      const restarted = restartedFleet(state.storage, workspaceId);
      expect(restarted.hasPending()).toBe(true);
      await restarted.flush();
    });
    expect(await positionsOf(b!.id)).toHaveLength(1);
    expect(await db().select().from(beacons).where(eq(beacons.id, b!.id)).get()).toMatchObject({
      rejectedClockAhead: 1,
    });
    expect(await telemetryOf(b!.vehicleId)).toMatchObject({ recordedAt: T0, version: await versionOf(workspaceId) });
  });

  it("holds one pending entry per D1 row: a vehicle's day rewritten by 200 fixes in two calls is one entry, flushed with the last figures", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    const fixes = (from: number) =>
      Array.from({ length: 100 }, (_, i) => report(b!.id, T0 + (from + i) * 5_000, { speed: 10, ignition: true }));
    await ingestRequests([fixes(0)], { flushMs: LATER });
    await ingestRequests([fixes(100)], { flushMs: LATER });
    await runInDurableObject(roomOf(workspaceId), async (_room: WorkspaceRoom, state) => {
      const rows = new LiveStore(state.storage).pending().filter((p) => p.body.kind === "row");
      const keys = rows.map((p) => p.key);
      expect(new Set(keys).size).toBe(keys.length);
      // its day (or two: T0 is an hour ago, so the run crosses midnight when the test does), its
      // open trip's figures, its vehicle row (engine hours) and the like: not one entry per fix
      expect(rows.length).toBeLessThanOrEqual(5);
    });
    expect(await runDurableObjectAlarm(roomOf(workspaceId))).toBe(true);
    const day = await db().select().from(vehicleDayRollups).where(eq(vehicleDayRollups.vehicleId, b!.vehicleId)).all();
    // driving from the first fix to the 200th, 5 s apart: the figures of the last write, not of the first call
    expect(day.reduce((sum, d) => sum + d.drivingSeconds, 0)).toBe(199 * 5);
  });

  it("counts reports without a position in the beacon's one pending entry: 50 calls are one D1 row, flushed with the total", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    await runInDurableObject(roomOf(workspaceId), async (room: WorkspaceRoom, state) => {
      for (let i = 0; i < 50; i++) {
        const [answer] = await room.ingest([{ deviceId: b!.id, withoutPosition: 1 }], { flushMs: LATER });
        expect(answer).toMatchObject({ ok: true, outcomes: ["no_position"] });
      }
      const pending = new LiveStore(state.storage).pending();
      // Issue 56: no write of its own per report; the counter rides in the beacon's health entry.
      expect(pending.map((p) => p.key)).toEqual([`beacon:${b!.id}`]);
    });
    expect(await runDurableObjectAlarm(roomOf(workspaceId))).toBe(true);
    const beacon = await db().select().from(beacons).where(eq(beacons.id, b!.id)).get();
    expect(beacon).toMatchObject({ rejectedNoPosition: 50, lastReportAt: null, lastRejectedAt: null });
    expect(beacon!.lastNoPositionAt).not.toBeNull();
    expect(await positionsOf(b!.id)).toEqual([]);
  });

  it("runs on the object's alarm and leaves nothing pending; a report after it waits for the next", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    await ingestRequests([[report(b!.id, T0)]], { flushMs: LATER });
    expect(await runDurableObjectAlarm(roomOf(workspaceId))).toBe(true);
    expect(await positionsOf(b!.id)).toHaveLength(1);
    expect(await withRoomParts(workspaceId, (parts) => parts.fleet.hasPending())).toBe(false);
  });
});

describe("pulls", () => {
  it("answer with reports the object has not flushed yet (the pull flushes first), once", async () => {
    const {
      token,
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    const pull = async (cookie: unknown) => {
      const res = await call("/api/sync/pull", {
        method: "POST",
        token,
        json: { pullVersion: 1, clientGroupID: group, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { cookie: unknown; patch: { op: string; key?: string }[] };
    };
    const group = crypto.randomUUID();
    const first = await pull(null);
    await ingestRequests([[report(b!.id, T0, { latitude: 42 })]], { flushMs: LATER });
    expect(await telemetryOf(b!.vehicleId)).toBeUndefined();
    const next = await pull(first.cookie);
    expect(next.patch.map((p) => p.key)).toContain(telemetryKey(b!.vehicleId));
    // Exactly once: the pull after it has nothing new.
    expect((await pull(next.cookie)).patch).toEqual([]);
    expect(await withRoomParts(workspaceId, (parts) => parts.fleet.hasPending())).toBe(false);
  });
});

describe("the per-device throttle", () => {
  it("lives in the device's workspace object: every call counts against one bucket, and refusals count on the beacon's health", async () => {
    const {
      workspaceId,
      beacons: [b],
    } = await workspaceWithBeacons(1);
    const times = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => report(b!.id, T0 + (from + i) * 1000));
    // Two calls, as two isolates would send them: 600 then 500, past the burst of 1,000.
    const [first] = await ingestRequests([times(0, 600)]);
    const [second] = await ingestRequests([times(600, 500)]);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: false, unknown: false });
    expect((second as { retryAfterS: number }).retryAfterS).toBeGreaterThan(0);
    expect(await db().select().from(beacons).where(eq(beacons.id, b!.id)).get()).toMatchObject({
      rejectedThrottled: 500,
      lastRejectedReason: "throttled",
    });
    expect(await positionsOf(b!.id)).toHaveLength(600);
    expect(await withRoomParts(workspaceId, (parts) => parts.fleet.vehicle(b!.vehicleId)?.latest?.recordedAt)).toBe(
      T0 + 599_000,
    );
  });
});
