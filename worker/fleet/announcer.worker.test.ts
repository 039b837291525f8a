import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database, type Db } from "../../db/client";
import { places } from "../../db/schema";
import { ObjectWatch } from "../../party/alerts/workspace-watch";
import type { RollupState } from "../../domain/reports/rollup";
import { call, userWithWorkspace } from "../test/factories";
import { roomOf } from "../test/ingest";
import type { WorkspaceRoom } from "../workspace-room";
import { withRoomParts } from "../test/room-parts";

// The one announcer (issue 35, docs/decisions/0027): the workspace's object holds its places,
// rules and time zone itself and is told of edits by one call, so an edit reaches the next report
// whatever isolate made it, and no per-isolate cache or TTL is involved.
const KNOTS = 1.943_844;

async function beaconOf(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

async function report(id: string, timestamp: number, lat: number, lon: number) {
  const params = new URLSearchParams({
    id,
    timestamp: String(timestamp),
    lat: String(lat),
    lon: String(lon),
    accuracy: "5",
    ignition: "true",
    speed: String(30 * KNOTS),
  });
  expect((await call(`/api/ingest/osmand?${params}`)).status).toBe(200);
}

const alertTypes = async (token: string) =>
  ((await (await call("/api/alerts", { token })).json()) as { alerts: { type: string; placeId: string | null }[] })
    .alerts;
const circle = (lon: number, lat: number) => ({
  type: "Circle" as const,
  center: [lon, lat] as [number, number],
  radius: 200,
});

describe("the one announcer", () => {
  it("brings the object's places up to date with one call, and only that call: the next report is evaluated against them", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    expect(
      (await call("/api/alert-rules", { method: "POST", token: a.token, json: { type: "place_enter" } })).status,
    ).toBe(201);
    const t0 = Date.now() - 10 * 60_000;
    await report(beacon.id, t0, 41.7, -87.6); // the object reads its watch: no place yet

    // A place written to D1 by no route that announces it (as if the editor's isolate had only
    // cleared its own cache): the object keeps folding with what it was told.
    await database(env.DB)
      .insert(places)
      .values({
        id: crypto.randomUUID(),
        workspaceId: a.workspaceId,
        name: "Unannounced",
        geometry: circle(-87.6, 41.8),
        version: 1,
      });
    await report(beacon.id, t0 + 60_000, 41.8, -87.6);
    expect(await alertTypes(a.token)).toEqual([]);

    // The editor's announcement reaches the object itself (called directly here, as from any isolate).
    await runInDurableObject(roomOf(a.workspaceId), (room: WorkspaceRoom) => room.changed({ places: true }));
    await report(beacon.id, t0 + 120_000, 41.7, -87.6);
    await report(beacon.id, t0 + 180_000, 41.8, -87.6);
    expect((await alertTypes(a.token)).map((x) => x.type)).toEqual(["place_enter"]);

    // Through the REST route, the same: created, then entered by the very next report.
    const depot = (await (
      await call("/api/places", {
        method: "POST",
        token: a.token,
        json: { name: "Depot", geometry: circle(-87.5, 41.7) },
      })
    ).json()) as { id: string };
    await report(beacon.id, t0 + 240_000, 41.7, -87.5);
    expect((await alertTypes(a.token)).map((x) => x.placeId)).toContain(depot.id);
  });

  it("takes a time-zone change to the vehicles the object already holds", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const t0 = Date.now() - 10 * 60_000;
    await report(beacon.id, t0, 41.7, -87.6);
    const zoneOf = () =>
      withRoomParts(a.workspaceId, (parts) => {
        const vehicle = parts.fleet.vehicle(beacon.vehicleId)!;
        return { vehicle: vehicle.timeZone, rollups: (vehicle.modules.rollups as RollupState | undefined)?.timeZone };
      });
    expect(await zoneOf()).toEqual({ vehicle: "UTC", rollups: "UTC" });
    expect(
      (await call("/api/workspace/preferences", { method: "PATCH", token: a.token, json: { timeZone: "Asia/Tokyo" } }))
        .status,
    ).toBe(200);
    expect((await zoneOf()).vehicle).toBe("Asia/Tokyo");
    await report(beacon.id, t0 + 60_000, 41.71, -87.6);
    expect(await zoneOf()).toEqual({ vehicle: "Asia/Tokyo", rollups: "Asia/Tokyo" });
  });

  it("keeps the watch in the object's storage: a restarted object folds with it without D1", async () => {
    const a = await userWithWorkspace();
    await call("/api/places", {
      method: "POST",
      token: a.token,
      json: { name: "Yard", geometry: circle(-87.6, 41.8) },
    });
    const beacon = await beaconOf(a.token, a.workspaceId);
    await report(beacon.id, Date.now() - 60_000, 41.7, -87.6);
    const rows = await runInDurableObject(roomOf(a.workspaceId), async (_room, state) => {
      const down = Object.assign(Object.create(database(env.DB)) as Db, {
        batch: () => Promise.reject(new Error("D1 unreachable")),
      });
      return new ObjectWatch(state.storage, a.workspaceId, () => down).rows();
    });
    expect(rows.places.map((p) => p.geometry)).toEqual([circle(-87.6, 41.8)]);
  });
});
