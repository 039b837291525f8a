import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { storedStretchesOf } from "../../shared/costs/fuel-economy";
import { bumpVersion, database, versionOf } from "../test/db";
import { fuelEntries, fuelStretches } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { pushMutations } from "../test/sync";
import { fuelEntryWrites } from "./fuel-writes";
import { fuelLogChanged, readVehicleLog, rebuildWorkspaceStretches } from "./fuel-stretches";

/**
 * The cost report's stored stretches are cut by the one rule (`storedStretchesOf`,
 * shared/costs/fuel-economy.ts) by every writer of fill-ups (docs/decisions/0078, migrations/0045):
 * after each write through REST or the push, the vehicle's `fuel_stretches` are exactly the rule
 * over its live fill-ups, and no SQL trigger is left to cut them a second way.
 */
const db = () => database(env.DB);
const DAY = 86_400_000;
const START = Date.UTC(2026, 5, 1);

const stored = (workspaceId: string, vehicleId: string) =>
  db()
    .select()
    .from(fuelStretches)
    .where(and(eq(fuelStretches.workspaceId, workspaceId), eq(fuelStretches.vehicleId, vehicleId)))
    .orderBy(asc(fuelStretches.closeAt), asc(fuelStretches.closeId))
    .all();

/** What the rule cuts from the vehicle's live fill-ups, as rows of `fuel_stretches`. */
async function ruleCut(workspaceId: string, vehicleId: string) {
  const log = await readVehicleLog(db(), workspaceId, vehicleId);
  return storedStretchesOf(log.fills).map((s) => ({ workspaceId, vehicleId, ...s }));
}

async function expectKeptByTheRule(workspaceId: string, vehicleId: string) {
  expect(await stored(workspaceId, vehicleId)).toEqual(await ruleCut(workspaceId, vehicleId));
}

/** A log with what the rule treats specially: partials, an odometer missing, one going backwards, two at one instant. */
const LOG = [
  { day: 0, volumeLitres: 40, fullTank: true, odometerMiles: 1_000 },
  { day: 3, volumeLitres: 15, fullTank: false, odometerMiles: 1_150 },
  { day: 5, volumeLitres: 30, fullTank: true, odometerMiles: 1_400 },
  { day: 9, volumeLitres: 41, fullTank: true, odometerMiles: null },
  { day: 12, volumeLitres: 38, fullTank: true, odometerMiles: 2_150 },
  { day: 12, volumeLitres: 5, fullTank: true, odometerMiles: 2_160 },
  { day: 16, volumeLitres: 39, fullTank: true, odometerMiles: 1_900 },
  { day: 20, volumeLitres: 42, fullTank: true, odometerMiles: 2_900 },
];

describe("fuel stretches kept by the one rule", () => {
  it("after every REST write: log, edit (moved, turned partial, odometer cleared), delete", async () => {
    const a = await userWithWorkspace();
    const truck = await insertVehicle(a.workspaceId, { name: "Truck" });
    const ids: string[] = [];
    for (const { day, ...fields } of LOG) {
      const res = await call("/api/fuel-entries", {
        method: "POST",
        token: a.token,
        json: { vehicleId: truck, at: new Date(START + day * DAY).toISOString(), ...fields },
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
      await expectKeptByTheRule(a.workspaceId, truck);
    }
    expect((await stored(a.workspaceId, truck)).length).toBe(6);
    const edits: [string, object][] = [
      [ids[6]!, { at: new Date(START + 2 * DAY).toISOString() }],
      [ids[2]!, { fullTank: false }],
      [ids[4]!, { odometerMiles: null }],
    ];
    for (const [id, patch] of edits) {
      const res = await call(`/api/fuel-entries/${id}`, { method: "PATCH", token: a.token, json: patch });
      expect(res.status).toBe(200);
      await expectKeptByTheRule(a.workspaceId, truck);
    }
    for (const id of [ids[0]!, ids[7]!]) {
      expect((await call(`/api/fuel-entries/${id}`, { method: "DELETE", token: a.token })).status).toBe(204);
      await expectKeptByTheRule(a.workspaceId, truck);
    }
  }, 60_000);

  it("after every pushed mutation: logFuelEntry, updateFuelEntry, deleteFuelEntry", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van" });
    const ids = LOG.map(() => crypto.randomUUID());
    const logged = LOG.map(({ day, ...fields }, i) => ({
      name: "logFuelEntry",
      args: { id: ids[i], vehicleId: van, at: new Date(START + day * DAY).toISOString(), ...fields },
    }));
    // Out of order: a fill-up logged late into the past recuts what follows it.
    expect((await pushMutations(a.token, logged.slice(4))).refused ?? []).toEqual([]);
    await expectKeptByTheRule(a.workspaceId, van);
    expect((await pushMutations(a.token, logged.slice(0, 4))).refused ?? []).toEqual([]);
    await expectKeptByTheRule(a.workspaceId, van);
    const changes = [
      { name: "updateFuelEntry", args: { id: ids[5], at: new Date(START + 30 * DAY).toISOString() } },
      { name: "updateFuelEntry", args: { id: ids[1], fullTank: true, odometerMiles: 1_100 } },
      { name: "deleteFuelEntry", args: { id: ids[3] } },
    ];
    for (const change of changes) {
      expect((await pushMutations(a.token, [change])).refused ?? []).toEqual([]);
      await expectKeptByTheRule(a.workspaceId, van);
    }
    expect((await stored(a.workspaceId, van)).length).toBeGreaterThan(3);
  }, 60_000);

  it("a write whose vehicle's log changed after it was read fails whole, writing nothing", async () => {
    const a = await userWithWorkspace();
    const truck = await insertVehicle(a.workspaceId, { name: "Truck" });
    const input = (day: number, odometerMiles: number) => ({
      vehicleId: truck,
      at: START + day * DAY,
      volumeLitres: 40,
      costCents: null,
      fullTank: true,
      odometerMiles,
      vendor: null,
      photoIds: [],
    });
    const now = Date.now();
    const first = await fuelEntryWrites(db(), a.workspaceId, input(0, 1_000), {
      id: crypto.randomUUID(),
      userId: a.userId,
      now,
    });
    const late = await fuelEntryWrites(db(), a.workspaceId, input(5, 1_300), {
      id: crypto.randomUUID(),
      userId: a.userId,
      now,
    });
    await db().batch([bumpVersion(db(), a.workspaceId), ...first.writes(versionOf(a.workspaceId))]);
    // `late` read the log before `first` landed: its stretches would miss it, so nothing of it lands.
    const failed = await db()
      .batch([bumpVersion(db(), a.workspaceId), ...late.writes(versionOf(a.workspaceId))])
      .catch((error: unknown) => error);
    expect(fuelLogChanged(failed)).toBe(true);
    const rows = await db().select().from(fuelEntries).where(eq(fuelEntries.vehicleId, truck)).all();
    expect(rows.map((r) => r.id)).toEqual([first.row.id]);
    await expectKeptByTheRule(a.workspaceId, truck);
  });

  it("leaves no trigger that writes the stretches, and the rebuild cuts a raw load as the writes would", async () => {
    const triggers = await env.DB.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%fuel_stretch%'`,
    ).all<{ name: string }>();
    expect(triggers.results).toEqual([]);
    const a = await userWithWorkspace();
    const truck = await insertVehicle(a.workspaceId, { name: "Truck" });
    await db()
      .insert(fuelEntries)
      .values(
        LOG.map(({ day, ...fields }) => ({
          id: crypto.randomUUID(),
          workspaceId: a.workspaceId,
          vehicleId: truck,
          version: 1,
          at: START + day * DAY,
          ...fields,
        })),
      );
    expect(await stored(a.workspaceId, truck)).toEqual([]);
    await rebuildWorkspaceStretches(db(), a.workspaceId);
    expect((await stored(a.workspaceId, truck)).length).toBe(6);
    await expectKeptByTheRule(a.workspaceId, truck);
  });
});
