import { env } from "cloudflare:workers";
import { firstPull } from "../test/sync";
import { describe, expect, it } from "vitest";
import type { FuelEconomy, FuelEntry } from "../../shared/costs/fuel";
import type { CostReportResponse } from "../../shared/costs/cost-report";
import { vehicleEventKey, type VehicleEventWire } from "../../shared/fleet/vehicle-event";
import type { TimelineEventItem } from "../../shared/fleet/timeline-events";
import { call, memberWithRole, report, userWithWorkspace } from "../test/factories";
import { ingest } from "../test/ingest";
import type { Report } from "../../domain/devices/osmand";
import { database } from "../../db/client";
import { d1Meter } from "../../db/d1-meter";
import { uncheckedStretches } from "../reports/unchecked-stretches";

/**
 * The fuel log held against the beacon's fuel level (issue 42, docs/decisions/0060): a fill-up with
 * no refuel seen near it carries `no_rise_seen` in the REST answers and is left out of economy;
 * refuels stay in the synced set for the browser's own check, however many trips follow them.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.now() - 8 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
type Patch = { op: string; key: string; value?: unknown }[];

async function beaconOf(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}

/** Standing with the ignition off, a reading a minute, at these levels (null: a beacon with no fuel sensor). */
const standing = (deviceId: string, levels: (number | null)[], from: number): Report[] =>
  levels.map((fuel, i) => report(deviceId, from + i * MIN, { speed: 0, ignition: false, fuel }));
const driving = (deviceId: string, from: number, minutes: number, fuel: number | null, lat = 40): Report[] =>
  Array.from({ length: minutes }, (_, i) =>
    report(deviceId, from + i * MIN, { speed: 15, ignition: true, latitude: lat + (i + 1) * 0.01, fuel }),
  );
/** 20 % for six minutes, then the pump: 90 % and steady. */
const PUMPED = [20, 20, 21, 20, 20, 20, 45, 70, 90, 90, 90, 90, 90, 90, 90, 90, 90, 90];

const post = (token: string, json: unknown) => call("/api/fuel-entries", { method: "POST", token, json });
const fill = (vehicleId: string, at: number, odometerMiles: number, fullTank = true) => ({
  vehicleId,
  at: iso(at),
  volumeLitres: 40,
  fullTank,
  odometerMiles,
});
async function entries(token: string, query: string) {
  const res = await call(`/api/fuel-entries?${query}`, { token });
  return { status: res.status, entries: ((await res.json()) as { entries?: FuelEntry[] }).entries ?? [] };
}
const economy = async (token: string, vehicleId: string) =>
  (await (await call(`/api/vehicles/${vehicleId}/fuel-economy`, { token })).json()) as FuelEconomy;

/** A beacon that refuelled at T0 (its level sent), its fill-up logged then, and one logged 3 h later that the tank never saw. */
async function refuelledVehicle() {
  const a = await userWithWorkspace();
  const beacon = await beaconOf(a.token, a.workspaceId);
  await ingest([...standing(beacon.id, PUMPED, T0), ...driving(beacon.id, T0 + 18 * MIN, 6, 88)]);
  const matched = await post(a.token, fill(beacon.vehicleId, T0 + 10 * MIN, 1000));
  expect(matched.status).toBe(201);
  const invented = await post(a.token, fill(beacon.vehicleId, T0 + 3 * HOUR, 1300, false));
  return { a, beacon, matched: (await matched.json()) as FuelEntry, invented: (await invented.json()) as FuelEntry };
}

describe("no_rise_seen: fill-ups held against the refuels the beacon showed", () => {
  it("flags the fill-up with no refuel near it in POST and GET, not the one the tank rose for", async () => {
    const { a, beacon, matched, invented } = await refuelledVehicle();
    expect(matched.flags).toEqual([]);
    expect(invented.flags).toEqual(["no_rise_seen"]);
    const listed = await entries(a.token, `vehicleId=${beacon.vehicleId}`);
    expect(listed.entries.map((e) => [e.id, e.flags])).toEqual([
      [invented.id, ["no_rise_seen"]],
      [matched.id, []],
    ]);
    // Viewers read the same flags.
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await entries(viewer.token, `vehicleId=${beacon.vehicleId}`)).entries[0]!.flags).toEqual(["no_rise_seen"]);
    expect((await post(viewer.token, fill(beacon.vehicleId, T0, 900))).status).toBe(403);
  });

  it("leaves a flagged fill-up out of economy and counts it in entriesFlagged", async () => {
    const { a, beacon } = await refuelledVehicle();
    // Closes the stretch opened at T0 and carries the unseen partial fill: the stretch is doubtful.
    await post(a.token, fill(beacon.vehicleId, T0 + 5 * HOUR, 1400));
    const figures = await economy(a.token, beacon.vehicleId);
    expect(figures.mpg).toBeNull();
    expect(figures.entriesUsed).toBe(0);
    expect(figures.entriesFlagged).toBeGreaterThanOrEqual(1);
  });

  it("leaves the same stretch out of the cost report's economy, which agrees with the vehicle's", async () => {
    const { a, beacon } = await refuelledVehicle();
    await post(a.token, fill(beacon.vehicleId, T0 + 5 * HOUR, 1400));
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = `from=${day(T0 - 2 * 24 * HOUR)}&to=${day(Date.now() + 24 * HOUR)}`;
    const res = await call(`/api/reports/costs?${range}&vehicleId=${beacon.vehicleId}`, { token: a.token });
    const row = ((await res.json()) as CostReportResponse).rows[0]!;
    // Bought, all 120 L; but the only stretch carries the unseen fill-up, so no economy (400 mi on 80 L without the check).
    expect(row.fuelLitres).toBe(120);
    expect(row.mpg).toBeNull();
    expect(row.mpg).toBe((await economy(a.token, beacon.vehicleId)).mpg);
  });

  it("finds the cost report's doubtful stretches reading fuel events, telemetry and fill-ups once each", async () => {
    const { a, beacon } = await refuelledVehicle();
    const closing = (await (await post(a.token, fill(beacon.vehicleId, T0 + 5 * HOUR, 1400))).json()) as FuelEntry;
    const now = Date.now();
    d1Meter.statements = 0;
    d1Meter.on = true;
    let unchecked: string[];
    try {
      unchecked = await uncheckedStretches(database(env.DB), a.workspaceId, new Set([beacon.vehicleId]), now, now);
    } finally {
      d1Meter.on = false;
    }
    // The stretch the unseen partial fill-up is in, named by the full one closing it.
    expect(unchecked).toEqual([closing.id]);
    // One statement per table (was four: the watched vehicles' join, the fill-ups, then events and telemetry again).
    expect(d1Meter.statements).toBe(3);
  });

  it("judges nothing of a vehicle whose beacon sends no fuel level", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await ingest([
      ...standing(
        beacon.id,
        PUMPED.map(() => null),
        T0,
      ),
      ...driving(beacon.id, T0 + 18 * MIN, 6, null),
    ]);
    const res = await post(a.token, fill(beacon.vehicleId, T0 + 3 * HOUR, 1300));
    expect(((await res.json()) as FuelEntry).flags).toEqual([]);
  });

  it("holds another workspace's fill-ups against its own refuels only, and hides the vehicle from it", async () => {
    const { beacon } = await refuelledVehicle();
    const b = await userWithWorkspace();
    const other = await beaconOf(b.token, b.workspaceId);
    await ingest(standing(other.id, [50, 50, 50, 50, 50, 50], T0 - HOUR));
    const res = await post(b.token, fill(other.vehicleId, T0 + 10 * MIN, 500));
    // b's vehicle sends a level but its tank was never seen to move: nothing to hold the fill-up against.
    expect(((await res.json()) as FuelEntry).flags).toEqual([]);
    expect((await entries(b.token, `vehicleId=${beacon.vehicleId}`)).status).toBe(404);
    expect((await call(`/api/vehicles/${beacon.vehicleId}/fuel-economy`, { token: b.token })).status).toBe(404);
  });

  it("keeps a refuel in the synced set after more than three newer events, for the browser's check", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    let t = T0 + 18 * MIN;
    const later: Report[] = [];
    for (let leg = 0; leg < 3; leg++) {
      later.push(
        ...driving(beacon.id, t, 6, 88, 40 + leg * 0.1),
        ...standing(beacon.id, Array(10).fill(88), t + 6 * MIN),
      );
      t += 16 * MIN;
    }
    await ingest([...standing(beacon.id, PUMPED, T0), ...later]);
    const refuels = await call(`/api/vehicles/${beacon.vehicleId}/events?type=refuel`, { token: a.token });
    const [refuel] = ((await refuels.json()) as { events: TimelineEventItem[] }).events;
    expect(refuel).toBeDefined();
    const pull = await firstPull(a.token);
    const { patch } = (await pull.json()) as { patch: Patch };
    const puts = patch.filter((p) => p.op === "put" && p.key.startsWith(`event/${beacon.vehicleId}/`));
    expect(puts.length).toBeGreaterThan(3);
    const synced = puts.find((p) => p.key === vehicleEventKey(beacon.vehicleId, refuel!.id));
    expect((synced?.value as VehicleEventWire | undefined)?.k).toBe("REFUEL");
  });
});
