import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { HistoryResponse } from "../../shared/vehicle-history";
import { database } from "../db/client";
import { positions } from "../db/schema";
import { chunkRows } from "../lib/chunk";
import { call, userWithWorkspace } from "../test/factories";

async function orderOne(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

const report = async (params: Record<string, string | number>) => {
  const res = await call(`/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);
  expect(res.status).toBe(200);
};

const history = (vehicleId: string, token?: string, query = "") => call(`/api/vehicles/${vehicleId}/history${query}`, { token });

describe("vehicle history", () => {
  it("answers the recent speed and fuel of a vehicle, oldest first, from its reports", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 10 * 60_000;
    // 10 knots then 20 knots; fuel falls.
    await report({ id: beacon.id, lat: 40, lon: -100, timestamp: t0, speed: 10, fuel: 80, ignition: "true" });
    await report({ id: beacon.id, lat: 40.001, lon: -100, timestamp: t0 + 60_000, speed: 20, fuel: 79, ignition: "true" });

    const res = await history(beacon.vehicleId, a.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as HistoryResponse;
    expect(body.vehicleId).toBe(beacon.vehicleId);
    expect(body.points.map((p) => p.t)).toEqual([t0, t0 + 60_000]);
    expect(body.points.map((p) => p.fuel)).toEqual([80, 79]);
    expect(body.points[0]!.speed).toBeCloseTo(10 * 0.514444, 3);

    const later = (await (await history(beacon.vehicleId, a.token, `?since=${t0 + 1}`)).json()) as HistoryResponse;
    expect(later.points.map((p) => p.t)).toEqual([t0 + 60_000]);
  });

  it("answers at most the 300 most recent points", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 60 * 60_000;
    const times = Array.from({ length: 305 }, (_, i) => t0 + i * 1000);
    // Straight into D1 (ingesting 305 reports one by one is slow and not what this is about).
    const db = database(env.DB);
    const rows = times.map((t) => ({
      beaconId: beacon.id,
      recordedAt: t,
      workspaceId: a.workspaceId,
      vehicleId: beacon.vehicleId,
      latitude: 40,
      longitude: -100,
      speed: 1,
      fuel: 50,
      receivedAt: t,
    }));
    // Drizzle binds every column of a positions row: 16 parameters.
    const [first, ...rest] = chunkRows(rows, 16).map((part) => db.insert(positions).values(part));
    await db.batch([first!, ...rest]);
    const body = (await (await history(beacon.vehicleId, a.token)).json()) as HistoryResponse;
    expect(body.points).toHaveLength(300);
    expect(body.points[0]!.t).toBe(times[5]);
    expect(body.points.at(-1)!.t).toBe(times[304]);
  });

  it("never shows another workspace's vehicle: 404, as for a vehicle that does not exist", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    await report({ id: beacon.id, lat: 40, lon: -100, timestamp: Date.now() - 60_000, speed: 5, fuel: 50 });

    const res = await history(beacon.vehicleId, b.token);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await history(crypto.randomUUID(), a.token)).status).toBe(404);
  });

  it("requires a session and validates since", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    expect((await history(beacon.vehicleId)).status).toBe(401);
    const bad = await history(beacon.vehicleId, a.token, "?since=yesterday");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
  });
});
