import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { vehicleEventKey, type VehicleEventWire } from "../../shared/fleet/vehicle-event";
import type { TimelineEventItem } from "../../shared/fleet/timeline-events";
import { database } from "../test/db";
import { vehicles } from "../../db/schema";
import { call, memberWithRole, report, userWithWorkspace } from "../test/factories";
import { ingest } from "../test/ingest";
import type { Report } from "../../domain/devices/osmand";
import { firstPull } from "../test/sync";

/**
 * Refuels and fuel drops seen in the beacon's fuel level (issue 42, docs/decisions/0050): folded
 * by ingestion, written beside trips and stops, pulled by the browser, and listed by
 * GET /api/vehicles/{id}/events.
 */
const MIN = 60_000;
const T0 = Date.now() - 3 * 3_600_000;
type Patch = { op: string; key: string; value?: unknown }[];

async function beaconOf(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

/** A vehicle standing with its ignition off, a reading a minute, at these fuel levels. */
const standing = (deviceId: string, levels: number[], from = T0): Report[] =>
  levels.map((fuel, i) => report(deviceId, from + i * MIN, { speed: 0, ignition: false, fuel }));

async function events(token: string, vehicleId: string, query = "") {
  const res = await call(`/api/vehicles/${vehicleId}/events${query}`, { token });
  return { status: res.status, body: (await res.json()) as { events: TimelineEventItem[] } };
}

async function pulledEvents(token: string) {
  const res = await firstPull(token);
  const { patch } = (await res.json()) as { patch: Patch };
  return new Map(patch.filter((p) => p.op === "put").map((p) => [p.key, p.value as VehicleEventWire]));
}

/** 70 % for six minutes, then 30 points gone in four, then steady: a siphoned tank. */
const SIPHONED = [70, 70.5, 69.8, 70.2, 70, 69.9, 62, 52, 45, 40, 40.3, 39.8, 40, 40.1, 40, 39.9, 40.2, 40];

describe("refuels and fuel drops from the beacon's fuel level", () => {
  it("turns a tank losing 30 points while parked into a fuel_drop event with its litres, pulled and listed", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await database(env.DB).update(vehicles).set({ fuelTankLitres: 80 }).where(eq(vehicles.id, beacon.vehicleId));
    await ingest(standing(beacon.id, SIPHONED));

    const { status, body } = await events(a.token, beacon.vehicleId, "?type=fuel_drop");
    expect(status).toBe(200);
    expect(body.events).toHaveLength(1);
    const [drop] = body.events;
    expect(drop!.type).toBe("fuel_drop");
    expect(drop!.end).not.toBeNull();
    expect(drop!.litres).toBeGreaterThan(22);
    expect(drop!.litres).toBeLessThan(26);
    expect(drop!.fuelFromPercent).toBeGreaterThan(drop!.fuelToPercent!);
    expect(Date.parse(drop!.start)).toBeLessThanOrEqual(T0 + 7 * MIN);

    const pulled = (await pulledEvents(a.token)).get(vehicleEventKey(beacon.vehicleId, drop!.id));
    expect(pulled?.k).toBe("FUEL_DROP");
    expect(pulled!.fa! - pulled!.fz!).toBeGreaterThan(27);
  });

  it("lists trips and stops too, and no fuel event where the level only wavers", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const wavering = [50, 52, 49, 51, 50, 48, 52, 50, 49, 51];
    const drive = Array.from({ length: 6 }, (_, i) =>
      report(beacon.id, T0 + (10 + i) * MIN, { speed: 15, ignition: true, latitude: 40 + (i + 1) * 0.01, fuel: 50 }),
    );
    await ingest([...standing(beacon.id, wavering), ...drive]);
    const { body } = await events(a.token, beacon.vehicleId);
    expect(body.events.map((e) => e.type)).toEqual(["stop", "transit"]);
    expect(body.events[1]!.distanceMiles).toBeGreaterThan(3);
    expect(body.events[0]!.litres).toBeUndefined();
    expect((await events(a.token, beacon.vehicleId, "?type=refuel")).body.events).toEqual([]);
  });

  it("gives a refuel no litres until the vehicle's tank is set, then works them out from it", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await ingest(standing(beacon.id, [20, 20, 21, 20, 20, 20, 45, 70, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90]));
    const before = (await events(a.token, beacon.vehicleId, "?type=refuel")).body.events;
    expect(before).toHaveLength(1);
    expect(before[0]!.litres).toBeNull();
    const patched = await call(`/api/vehicles/${beacon.vehicleId}`, {
      method: "PATCH",
      token: a.token,
      json: { fuelTankLitres: 60 },
    });
    expect(patched.status).toBe(200);
    const [refuel] = (await events(a.token, beacon.vehicleId, "?type=refuel")).body.events;
    expect(refuel!.litres).toBeCloseTo(42, 0);
  });

  it("lets viewers read, answers 400 naming the field, and 404 for another workspace's vehicle", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await ingest(standing(beacon.id, SIPHONED));
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await events(viewer.token, beacon.vehicleId)).status).toBe(200);

    for (const query of ["?type=refill", "?from=yesterday", "?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z"]) {
      const res = await call(`/api/vehicles/${beacon.vehicleId}/events${query}`, { token: a.token });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { code: string; message: string; fields?: object } };
      expect(error.code).toBeTruthy();
      expect(JSON.stringify(error)).toMatch(/type|from/);
    }

    const other = await events(b.token, beacon.vehicleId);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain("fuel_drop");
  });
});
