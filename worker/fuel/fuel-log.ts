import { and, desc, eq, gte, inArray, lt, max, type SQL } from "drizzle-orm";
import type { FuelEntry } from "../../shared/costs/fuel";
import { fuelTable } from "../../shared/costs/fuel-fields";
import { fuelEntryFlags } from "../../shared/costs/fuel-flags";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { fuelEntries, vehicles } from "../../db/schema";
import type { FuelRow } from "./fuel-writes";
import { noRiseSeen } from "./rise-check";

/**
 * Reading the fuel log over REST (issue 42): the live entries of a range, newest first, each with
 * the flags its vehicle's log gives it (shared/costs/fuel-flags.ts). An entry's odometer is compared with
 * every earlier one of its vehicle, inside the range or before it, so a range answers the same flags
 * as the whole log would.
 */
/** Entries answered per request (older ones: a narrower range). */
export const FUEL_ENTRIES_LIMIT = 1000;

export async function liveFuelEntries(
  db: Db,
  workspaceId: string,
  { vehicleId, from, to }: { vehicleId?: string; from?: number; to?: number },
): Promise<FuelRow[]> {
  const where: SQL[] = [eq(fuelEntries.workspaceId, workspaceId), eq(fuelEntries.deleted, false)];
  if (vehicleId) where.push(eq(fuelEntries.vehicleId, vehicleId));
  if (from !== undefined) where.push(gte(fuelEntries.at, from));
  if (to !== undefined) where.push(lt(fuelEntries.at, to));
  return db
    .select()
    .from(fuelEntries)
    .where(and(...where))
    .orderBy(desc(fuelEntries.at))
    .limit(FUEL_ENTRIES_LIMIT)
    .all();
}

/** Each vehicle's tank, and the highest odometer logged before its earliest row here. */
async function flagContext(db: Db, workspaceId: string, rows: readonly FuelRow[]) {
  const earliest = Math.min(...rows.map((r) => r.at));
  const tank = new Map<string, number | null>();
  const highestBefore = new Map<string, number | null>();
  // A page of 1,000 entries can name more vehicles than one statement may bind (db/chunk.ts).
  for (const part of inLists(new Set(rows.map((r) => r.vehicleId)))) {
    const [tanks, before] = await db.batch([
      db
        .select({ id: vehicles.id, fuelTankLitres: vehicles.fuelTankLitres })
        .from(vehicles)
        .where(and(eq(vehicles.workspaceId, workspaceId), inArray(vehicles.id, part))),
      db
        .select({ vehicleId: fuelEntries.vehicleId, odometerMiles: max(fuelEntries.odometerMiles) })
        .from(fuelEntries)
        .where(
          and(
            eq(fuelEntries.workspaceId, workspaceId),
            inArray(fuelEntries.vehicleId, part),
            eq(fuelEntries.deleted, false),
            lt(fuelEntries.at, earliest),
          ),
        )
        .groupBy(fuelEntries.vehicleId),
    ]);
    for (const t of tanks) tank.set(t.id, t.fuelTankLitres);
    for (const b of before) highestBefore.set(b.vehicleId, b.odometerMiles);
  }
  return { tank, highestBefore };
}

/** `rows` as the API answers them, flagged against their vehicles' logs. */
export async function withFlags(
  db: Db,
  workspaceId: string,
  rows: readonly FuelRow[],
  now = Date.now(),
): Promise<FuelEntry[]> {
  if (rows.length === 0) return [];
  const [{ tank, highestBefore }, noRise] = await Promise.all([
    flagContext(db, workspaceId, rows),
    noRiseSeen(db, workspaceId, rows, now),
  ]);
  const flags = new Map<string, FuelEntry["flags"]>();
  for (const vehicleId of tank.keys()) {
    const own = rows.filter((r) => r.vehicleId === vehicleId);
    const found = fuelEntryFlags(own, tank.get(vehicleId) ?? null, highestBefore.get(vehicleId) ?? null);
    for (const [id, f] of found) flags.set(id, f);
  }
  for (const id of noRise) flags.set(id, [...(flags.get(id) ?? []), "no_rise_seen"]);
  return rows.map((r) => toFuelEntry(r, flags.get(r.id) ?? []));
}

export function toFuelEntry(r: FuelRow, flags: FuelEntry["flags"]): FuelEntry {
  return {
    id: r.id,
    vehicleId: r.vehicleId,
    at: new Date(r.at).toISOString(),
    volumeLitres: r.volumeLitres,
    costCents: r.costCents,
    fullTank: r.fullTank,
    odometerMiles: r.odometerMiles,
    ...fuelTable.valuesOf(r),
    photoIds: r.photoIds,
    createdAt: new Date(r.createdAt).toISOString(),
    flags,
  };
}
