import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CostReportQuery } from "../../shared/costs/cost-report";
import { chunkRows } from "../../db/chunk";
import { database } from "../test/db";
import { fuelEntries, fuelStretches, vehicles, workspaces } from "../../db/schema";
import { addFuelFromRows } from "../test/cost-fuel-rows";
import { rebuildWorkspaceStretches } from "../fuel/fuel-stretches";
import { insertVehicle, userWithWorkspace } from "../test/factories";
import { costReport } from "./costs";

/**
 * The cost report's fuel worked out in D1 (docs/decisions/0061) against the per-row computation it
 * replaced (worker/test/cost-fuel-rows.ts: shared/costs/fuel-flags.ts and shared/costs/fuel-economy.ts over
 * every fill-up read), on a random fleet with what the rules treat specially: partial fills,
 * fills over the tank, odometers missing or going backwards, fill-ups at the same instant, stretches
 * far from a vehicle's usual economy, deleted fill-ups and vehicles, fill-ups before the range.
 */
const db = () => database(env.DB);
const DAY = 86_400_000;

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Fill = typeof fuelEntries.$inferInsert;

/** One vehicle's log from 4 months before 2026-01-01 to 2027-01-01, every fifth vehicle erratic. */
function logOf(rand: () => number, workspaceId: string, vehicleId: string, erratic: boolean): Fill[] {
  const fills: Fill[] = [];
  let at = Date.UTC(2025, 8, 1) + Math.floor(rand() * DAY);
  let odometer = 1000 + Math.floor(rand() * 50_000);
  while (at < Date.UTC(2027, 0, 1)) {
    const miles = erratic && rand() < 0.1 ? 40 + rand() * 2000 : 250 + rand() * 150;
    odometer += erratic && rand() < 0.05 ? -500 : Math.round(miles * 10) / 10;
    fills.push({
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId,
      version: 1,
      at,
      volumeLitres: Math.round((erratic && rand() < 0.05 ? 95 : 20 + rand() * 55) * 100) / 100,
      costCents: rand() < 0.1 ? null : 3000 + Math.floor(rand() * 9000),
      fullTank: rand() < 0.75,
      odometerMiles: rand() < 0.05 ? null : odometer,
      deleted: rand() < 0.03,
    });
    // Now and then two fill-ups at the same instant: their order is by id.
    at += rand() < 0.03 ? 0 : Math.floor(rand() * 5 * DAY) + 1;
  }
  return fills;
}

async function randomFleet(seed: number) {
  const rand = random(seed);
  const a = await userWithWorkspace();
  const ws = a.workspaceId;
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const tank = i % 3 === 0 ? null : 60 + Math.floor(rand() * 40);
    const id = await insertVehicle(ws, { name: `Vehicle ${i}`, fuelTankLitres: tank });
    ids.push(id);
    const fills = logOf(rand, ws, id, i % 5 === 0);
    // Up to 16 bound values a row (the columns given): 6 rows a statement stay within D1's 100; one batch a vehicle.
    const [first, ...rest] = chunkRows(fills, 16).map((rows) => db().insert(fuelEntries).values(rows));
    await db().batch([first!, ...rest]);
  }
  // A deleted vehicle's fill-ups count nowhere.
  await db().update(vehicles).set({ deleted: true }).where(eq(vehicles.id, ids[11]!));
  // Loaded in bulk, as the bench and a restore do: the stretches are cut once after (the rebuild).
  await rebuildWorkspaceStretches(db(), ws);
  return { ...a, ids };
}

/**
 * Edits and deletions in the middle of the logs, one raw statement each (the write paths' own
 * stretches are worker/fuel/fuel-stretches.worker.test.ts's), then the rebuild: fill-ups moved in time, turned full or partial, odometers cleared or
 * sent backwards, volumes over the tank, deleted (tombstones and rows removed), restored, and
 * fill-ups logged late into the past.
 */
async function reworkLogs(seed: number, workspaceId: string) {
  const rand = random(seed);
  const rows = await db().select().from(fuelEntries).where(eq(fuelEntries.workspaceId, workspaceId)).all();
  const scoped = (id: string) => and(eq(fuelEntries.workspaceId, workspaceId), eq(fuelEntries.id, id));
  const change = (r: (typeof rows)[number]) => {
    const pick = Math.floor(rand() * 7);
    const set = (fields: Partial<Fill>) => db().update(fuelEntries).set(fields).where(scoped(r.id));
    if (pick === 0) return set({ at: r.at + Math.floor((rand() - 0.5) * 6 * DAY) });
    if (pick === 1) return set({ fullTank: !r.fullTank });
    if (pick === 2) return set({ odometerMiles: rand() < 0.5 ? null : (r.odometerMiles ?? 0) - 600 });
    if (pick === 3) return set({ volumeLitres: 98.5 });
    if (pick === 4) return set({ deleted: !r.deleted });
    if (pick === 5) return db().delete(fuelEntries).where(scoped(r.id));
    return db()
      .insert(fuelEntries)
      .values({ ...r, id: crypto.randomUUID(), at: r.at - Math.floor(rand() * 3 * DAY), volumeLitres: 33.3 });
  };
  const writes = rows.filter(() => rand() < 0.08).map(change);
  const [first, ...rest] = writes;
  await db().batch([first!, ...rest]);
  await rebuildWorkspaceStretches(db(), workspaceId);
}

/** The workspace's stored stretches, in key order. */
const storedStretches = (workspaceId: string) =>
  db()
    .select()
    .from(fuelStretches)
    .where(eq(fuelStretches.workspaceId, workspaceId))
    .orderBy(asc(fuelStretches.vehicleId), asc(fuelStretches.closeAt), asc(fuelStretches.closeId))
    .all();

async function bothWays(workspaceId: string, timeZone: string, query: Partial<CostReportQuery>) {
  await db().update(workspaces).set({ timeZone }).where(eq(workspaces.id, workspaceId));
  const q: CostReportQuery = {
    from: "2026-01-01",
    to: "2026-12-31",
    vehicleId: [],
    by: "vehicle",
    format: "json",
    ...query,
  };
  const inD1 = await costReport(db(), workspaceId, timeZone, q);
  const perRow = await costReport(db(), workspaceId, timeZone, q, addFuelFromRows);
  return { inD1, perRow };
}

// Seeding a year of 12 vehicles' fill-ups takes a while on a shared machine: a bound, not a measure.
describe("the cost report's fuel in D1", { timeout: 60_000 }, () => {
  it("answers exactly what the per-row computation answers, per vehicle and per month, in two time zones", async () => {
    const fleet = await randomFleet(42);
    for (const timeZone of ["America/Chicago", "Asia/Kolkata"]) {
      for (const by of ["vehicle", "month"] as const) {
        const { inD1, perRow } = await bothWays(fleet.workspaceId, timeZone, { by });
        expect(JSON.stringify(inD1)).toBe(JSON.stringify(perRow));
        expect(inD1.total.fuelCostCents).toBeGreaterThan(0);
        expect(inD1.total.mpg).not.toBeNull();
      }
    }
  });

  it("still matches after edits and deletions in the middle of the logs, cut again by the rebuild", async () => {
    const fleet = await randomFleet(11);
    await reworkLogs(5, fleet.workspaceId);
    await reworkLogs(6, fleet.workspaceId);
    for (const by of ["vehicle", "month"] as const) {
      const { inD1, perRow } = await bothWays(fleet.workspaceId, "America/Chicago", { by });
      expect(JSON.stringify(inD1)).toBe(JSON.stringify(perRow));
      expect(inD1.total.mpg).not.toBeNull();
    }
    // Cutting them again changes nothing: a rebuild is safe to run at any time.
    const kept = await storedStretches(fleet.workspaceId);
    expect(kept.length).toBeGreaterThan(100);
    await rebuildWorkspaceStretches(db(), fleet.workspaceId);
    expect(await storedStretches(fleet.workspaceId)).toEqual(kept);
  });

  it("matches for a range starting mid-month and for chosen vehicles (economy opened before the range included)", async () => {
    const fleet = await randomFleet(7);
    for (const by of ["vehicle", "month"] as const) {
      const query = { from: "2026-03-17", to: "2026-08-09", by, vehicleId: fleet.ids.slice(0, 5) };
      const { inD1, perRow } = await bothWays(fleet.workspaceId, "Europe/Berlin", query);
      expect(JSON.stringify(inD1)).toBe(JSON.stringify(perRow));
      expect(inD1.rows.some((r) => r.mpg !== null)).toBe(true);
    }
  });
});
