import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { fuelEconomy, type FuelEconomy } from "../../shared/costs/fuel-economy";
import { fuelEntryFlags } from "../../shared/costs/fuel-flags";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";
import { noRiseSeen } from "./rise-check";

/** The most fill-ups one vehicle's economy reads (years of daily fill-ups). */
const ECONOMY_ENTRIES = 5000;

/**
 * A vehicle's fuel economy over a range (issue 42): its fill-ups up to the range's end (a stretch may
 * open before the range; outliers are judged against its whole history), flagged by the shared
 * rules (shared/costs/fuel-flags.ts, shared/costs/fuel-check.ts), then shared/costs/fuel-economy.ts.
 */
export async function vehicleFuelEconomy(
  db: Db,
  workspaceId: string,
  vehicle: { id: string; fuelTankLitres: number | null },
  range: { from?: number; to?: number },
  now = Date.now(),
): Promise<FuelEconomy> {
  const where: SQL[] = [
    eq(fuelEntries.workspaceId, workspaceId),
    eq(fuelEntries.vehicleId, vehicle.id),
    eq(fuelEntries.deleted, false),
  ];
  if (range.to !== undefined) where.push(lt(fuelEntries.at, range.to));
  const rows = await db
    .select()
    .from(fuelEntries)
    .where(and(...where))
    .orderBy(desc(fuelEntries.at))
    .limit(ECONOMY_ENTRIES)
    .all();
  const flags = fuelEntryFlags(rows, vehicle.fuelTankLitres);
  // A fill-up the tank never rose for is left out like any other to check (docs/decisions/0060).
  for (const id of await noRiseSeen(db, workspaceId, rows, now))
    flags.set(id, [...(flags.get(id) ?? []), "no_rise_seen"]);
  return fuelEconomy(
    rows.map((r) => ({ ...r, flags: flags.get(r.id) ?? [] })),
    range,
  );
}
