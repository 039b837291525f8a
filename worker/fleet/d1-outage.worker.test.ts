import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { database } from "../../db/client";
import { telemetry } from "../../db/schema";
import type { HistoryResponse } from "../../shared/fleet/vehicle-history";
import { call, userWithWorkspace } from "../test/factories";
import { roomOf } from "../test/ingest";
import { forgetDevice } from "./device-directory";
import { withRoomParts } from "../test/room-parts";

// Ingestion without D1 in the steady state (issue 35, docs/decisions/0027): once a device has
// reported, its edge, its workspace's object and the object's watch answer from their own state;
// D1 failing only delays the flush, which catches up afterwards with nothing lost or doubled.

/**
 * D1 unreachable (a third party's outage): every statement and batch of the binding fails, a turn
 * later as a real round trip would, until restored.
 */
function d1Outage() {
  const db = env.DB as unknown as Record<string, unknown>;
  const saved = { prepare: db.prepare, batch: db.batch };
  const fail = async () => {
    await Promise.resolve();
    throw new Error("D1_ERROR: Failed to get session commit token (simulated outage)");
  };
  const statement = { bind: () => statement, all: fail, run: fail, raw: fail, first: fail };
  Object.assign(db, { prepare: () => statement, batch: fail });
  return () => Object.assign(db, saved);
}

/** This isolate's entry for the device dropped (the directory in KV keeps it). */
const forgetIsolateEntry = (deviceId: string) => void forgetDevice(deviceId);

async function send(id: string, timestamp: number, lat: number) {
  const res = await call(
    `/api/ingest/osmand?${new URLSearchParams({ id, timestamp: String(timestamp), lat: String(lat), lon: "-87.6", speed: "20", ignition: "true" })}`,
  );
  return { status: res.status, body: (await res.json()) as { outcomes?: string[] } };
}

describe("ingestion while D1 is down", () => {
  it("acknowledges, stores and shows every report, and D1 catches up afterwards with each once", async () => {
    const a = await userWithWorkspace();
    const res = await call("/api/beacons/order", {
      method: "POST",
      token: a.token,
      json: { workspaceId: a.workspaceId, count: 1 },
    });
    const [beacon] = (await res.json()) as { id: string; vehicleId: string }[];
    const t0 = Date.now() - 10 * 60_000;
    expect((await send(beacon!.id, t0, 41.7)).status).toBe(200); // first contact: read from D1 once
    // A page opened its history once: the object learnt the vehicle has no rows in D1's old table.
    expect(
      (await call(`/api/vehicles/${beacon!.vehicleId}/history?from=${t0}&to=${t0 + 1}`, { token: a.token })).status,
    ).toBe(200);

    // Another isolate, which has never seen the device: it finds the workspace in the directory (KV), not D1.
    forgetIsolateEntry(beacon!.id);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const restore = d1Outage();
    let answers: Awaited<ReturnType<typeof send>>[];
    try {
      answers = [];
      for (let i = 1; i <= 20; i++) answers.push(await send(beacon!.id, t0 + i * 5_000, 41.7 + i * 0.001));
      // Shown: the object's live state and history have them all while D1 is still down.
      const live = await withRoomParts(a.workspaceId, async (parts) => ({
        latest: parts.fleet.vehicle(beacon!.vehicleId)?.latest?.recordedAt,
        history: (await parts.positions.read(beacon!.vehicleId, t0, t0 + 200_000)).length,
        pending: parts.fleet.hasPending(),
      }));
      expect(live).toEqual({ latest: t0 + 100_000, history: 21, pending: true });
    } finally {
      restore();
    }
    expect(answers.map((x) => x.status)).toEqual(Array(20).fill(200));
    expect(answers.every((x) => x.body.outcomes?.[0] === "stored")).toBe(true);

    // D1 is back: the alarm's retry flushes the backlog once.
    expect(await runDurableObjectAlarm(roomOf(a.workspaceId))).toBe(true);
    error.mockRestore();
    expect(await withRoomParts(a.workspaceId, (parts) => parts.fleet.hasPending())).toBe(false);
    expect(
      await database(env.DB).select().from(telemetry).where(eq(telemetry.vehicleId, beacon!.vehicleId)).get(),
    ).toMatchObject({ recordedAt: t0 + 100_000 });
    const history = (await (
      await call(`/api/vehicles/${beacon!.vehicleId}/history?from=${t0}&to=${t0 + 200_000}`, { token: a.token })
    ).json()) as HistoryResponse;
    expect(history.points.map((p) => p.t)).toEqual(Array.from({ length: 21 }, (_, i) => t0 + i * 5_000));
  });
});
