import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { fuelEconomy, type FuelEconomy } from "../../domain/fuel/economy";
import { fuelEntryFlags } from "../../shared/fuel-flags";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";

/** The most fill-ups one vehicle's economy reads (years of daily fill-ups). */
const ECONOMY_ENTRIES = 5000;

/**
 * A vehicle's fuel economy over a range (issue 42): its fill-ups up to the range's end (a stretch may
 * open before the range; outliers are judged against its whole history), flagged by the shared
 * rule, then domain/fuel/economy.ts.
 */
export async function vehicleFuelEconomy(
  db: Db,
  workspaceId: string,
  vehicle: { id: string; fuelTankLitres: number | null },
  range: { from?: number; to?: number },
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
  return fuelEconomy(
    rows.map((r) => ({ ...r, flags: flags.get(r.id) ?? [] })),
    range,
  );
}
