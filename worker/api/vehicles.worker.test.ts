import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { HistoryResponse } from "../../shared/fleet/vehicle-history";
import { database } from "../../db/client";
import { positions } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { call, userWithWorkspace } from "../test/factories";
import { positionsIn } from "../test/positions";

async function orderOne(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

const report = async (params: Record<string, string | number>) => {
  const res = await call(
    `/api/ingest/osmand?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`,
  );
  expect(res.status).toBe(200);
};

const history = (vehicleId: string, token?: string, query = "") =>
  call(`/api/vehicles/${vehicleId}/history${query}`, { token });

describe("vehicle history", () => {
  it("answers the recent speed and fuel of a vehicle, oldest first, from its reports", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 10 * 60_000;
    // 10 knots then 20 knots; fuel falls.
    await report({ id: beacon.id, lat: 40, lon: -100, timestamp: t0, speed: 10, fuel: 80, ignition: "true" });
    await report({
      id: beacon.id,
      lat: 40.001,
      lon: -100,
      timestamp: t0 + 60_000,
      speed: 20,
      fuel: 79,
      ignition: "true",
    });

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

/** Positions straight into D1, as ingestion stores them (ingesting thousands one by one is not what these tests are about). */
async function insertPositions(
  beacon: { id: string; vehicleId: string },
  workspaceId: string,
  points: { t: number; lat: number; lng: number; speed: number }[],
) {
  const db = database(env.DB);
  const rows = points.map((p) => ({
    beaconId: beacon.id,
    recordedAt: p.t,
    workspaceId,
    vehicleId: beacon.vehicleId,
    latitude: p.lat,
    longitude: p.lng,
    speed: p.speed,
    fuel: 50,
    receivedAt: p.t,
  }));
  const [first, ...rest] = chunkRows(rows, 16).map((part) => db.insert(positions).values(part));
  await db.batch([first!, ...rest]);
}

describe("vehicle history over a range (route, trip replay)", () => {
  it("answers the positions between from and to, oldest first, with their place", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 60 * 60_000;
    await insertPositions(
      beacon,
      a.workspaceId,
      Array.from({ length: 10 }, (_, i) => ({
        t: t0 + i * 4000,
        lat: 43.6 + i * 0.001,
        lng: -79.4 + (i % 2) * 0.002,
        speed: 12,
      })),
    );
    const res = await history(beacon.vehicleId, a.token, `?from=${t0 + 4000}&to=${t0 + 5 * 4000}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as HistoryResponse;
    expect(body.points.map((p) => p.t)).toEqual([1, 2, 3, 4, 5].map((i) => t0 + i * 4000));
    expect(body.points[0]!.lat).toBeCloseTo(43.601, 9);
    expect(body.points[0]!.lng).toBeCloseTo(-79.398, 9);
    expect(body.points[0]!.speed).toBe(12);
  });

  it("downsamples a 10-hour day (one report every 4 s) to at most 1,000 points, keeping the stop", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 11 * 60 * 60_000;
    // 9,000 reports: driving a winding road, parked for 20 minutes in the middle, driving on.
    const day = Array.from({ length: 9000 }, (_, i) => {
      const parked = i >= 4000 && i < 4300;
      const along = parked ? 4000 : i < 4000 ? i : i - 300;
      return {
        t: t0 + i * 4000,
        lat: 43.6 + Math.sin(along / 40) * 0.01,
        lng: -79.4 + along * 0.0005,
        speed: parked ? 0 : 15,
      };
    });
    await insertPositions(beacon, a.workspaceId, day);
    const res = await history(beacon.vehicleId, a.token, `?from=${t0}&to=${t0 + 10 * 60 * 60_000}`);
    const { points } = (await res.json()) as HistoryResponse;
    expect(points.length).toBeLessThanOrEqual(1000);
    expect(points.length).toBeGreaterThan(500);
    expect(points[0]!.t).toBe(t0);
    expect(points.at(-1)!.t).toBe(day[8999]!.t);
    const times = new Set(points.map((p) => p.t));
    // The stop's first and last report survive: the replay waits there 20 minutes.
    expect(times.has(day[4000]!.t)).toBe(true);
    expect(times.has(day[4299]!.t)).toBe(true);
  });

  it("never answers another workspace's positions, even for a range", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const t0 = Date.now() - 60_000;
    await insertPositions(beacon, a.workspaceId, [{ t: t0, lat: 40, lng: -100, speed: 3 }]);
    const res = await history(beacon.vehicleId, b.token, `?from=${t0 - 1000}&to=${t0 + 1000}`);
    expect(res.status).toBe(404);
  });

  it("keeps another workspace's history behind 404 in every tier: raw, packed, R2 and D1's old rows", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const mine = await orderOne(b.token, b.workspaceId);
    // A's vehicle: two days ago (moved to R2), the last hour (packed, then raw), and a D1 row.
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    await report({ id: beacon.id, lat: 40, lon: -100, timestamp: twoDaysAgo, speed: 5 });
    await report({ id: beacon.id, lat: 40.01, lon: -100, timestamp: Date.now() - 3_600_000, speed: 5 });
    await positionsIn(a.workspaceId).maintain(Date.now() + 61_000);
    await report({ id: beacon.id, lat: 40.02, lon: -100, timestamp: Date.now() - 60_000, speed: 5 });
    await insertPositions(beacon, a.workspaceId, [{ t: twoDaysAgo - 1000, lat: 40, lng: -100, speed: 3 }]);
    expect(
      (await (await history(beacon.vehicleId, a.token, `?since=${twoDaysAgo - 5000}`)).json()) as HistoryResponse,
    ).toMatchObject({
      points: [{ t: twoDaysAgo - 1000 }, { t: twoDaysAgo }, {}, {}],
    });
    // B asks for A's vehicle: 404, by range across the boundary and by since.
    for (const query of [
      `?from=${twoDaysAgo - 5000}&to=${twoDaysAgo + 86_000_000}`,
      `?since=${twoDaysAgo - 5000}`,
      "",
    ]) {
      expect((await history(beacon.vehicleId, b.token, query)).status).toBe(404);
    }
    // B's own object holds nothing of A's vehicle, and A's R2 days are under A's prefix only.
    expect(await positionsIn(b.workspaceId).read(beacon.vehicleId, 0, Date.now())).toEqual([]);
    expect((await env.POSITIONS.list({ prefix: `positions/${b.workspaceId}/` })).objects).toEqual([]);
    expect(
      (await env.POSITIONS.list({ prefix: `positions/${a.workspaceId}/${beacon.vehicleId}/` })).objects,
    ).toHaveLength(1);
    expect((await history(mine.vehicleId, b.token)).status).toBe(200);
  });

  it("rejects a bad range with invalid_input and the field at fault", async () => {
    const a = await userWithWorkspace();
    const beacon = await orderOne(a.token, a.workspaceId);
    const now = Date.now();
    const cases: [string, string][] = [
      [`?from=${now}&to=${now - 1}`, "to"],
      [`?from=${now - 25 * 60 * 60_000}&to=${now}`, "to"],
      [`?to=${now}`, "from"],
      [`?from=abc`, "from"],
      [`?from=-5`, "from"],
      [`?from=${now - 1000}&since=${now - 1000}`, "since"],
    ];
    for (const [query, field] of cases) {
      const res = await history(beacon.vehicleId, a.token, query);
      expect(res.status, query).toBe(400);
      const body = (await res.json()) as { error: { code: string; fields?: Record<string, unknown> } };
      expect(body.error.code, query).toBe("invalid_input");
      expect(Object.keys(body.error.fields ?? {}), query).toContain(field);
    }
  });
});
