import { and, eq, gte, lt, type SQL } from "drizzle-orm";
import { fuelEconomy, type EconomyEntry } from "../../shared/costs/fuel-economy";
import { fuelEntryFlags } from "../../shared/costs/fuel-flags";
import { dayOf } from "../../shared/units/time-zone";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";
import { ECONOMY_LOOKBACK_DAYS } from "../reports/cost-fuel-sql";
import type { Context, costRange } from "../reports/costs";

/**
 * The cost report's fuel as it was worked out before docs/decisions/0061: every fill-up of the
 * range read into the Worker, flagged by shared/costs/fuel-flags.ts and run through
 * shared/costs/fuel-economy.ts per vehicle and span. Kept for the equivalence test of the D1 path.
 */
export async function addFuelFromRows(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  filters: (SQL | undefined)[],
  ctx: Context,
) {
  const byVehicle = new Map<string, EconomyEntry[]>();
  for (const filter of filters) {
    const rows = await db
      .select({
        id: fuelEntries.id,
        vehicleId: fuelEntries.vehicleId,
        at: fuelEntries.at,
        volumeLitres: fuelEntries.volumeLitres,
        costCents: fuelEntries.costCents,
        fullTank: fuelEntries.fullTank,
        odometerMiles: fuelEntries.odometerMiles,
      })
      .from(fuelEntries)
      .where(
        and(
          eq(fuelEntries.workspaceId, workspaceId),
          eq(fuelEntries.deleted, false),
          gte(fuelEntries.at, range.start - ECONOMY_LOOKBACK_DAYS * 86_400_000),
          lt(fuelEntries.at, range.end),
          filter,
        ),
      )
      .all();
    for (const r of rows) {
      const own = byVehicle.get(r.vehicleId) ?? [];
      own.push({ ...r, flags: [] });
      byVehicle.set(r.vehicleId, own);
      if (r.at < range.start) continue;
      const bucket = ctx.bucket(r.vehicleId, dayOf(r.at, ctx.timeZone));
      if (!bucket) continue;
      bucket.fuelCostCents += r.costCents ?? 0;
      bucket.fuelLitres += r.volumeLitres;
    }
  }
  for (const [vehicleId, entries] of byVehicle) {
    if (!ctx.tank.has(vehicleId)) continue;
    const flags = fuelEntryFlags(entries, ctx.tank.get(vehicleId) ?? null);
    const flagged = entries.map((e) => ({ ...e, flags: flags.get(e.id) ?? [] }));
    for (const span of ctx.spans) {
      const economy = fuelEconomy(flagged, { from: span.start, to: span.end });
      const bucket = ctx.bucket(vehicleId, span.day)!;
      bucket.economyMiles += economy.distanceMiles;
      bucket.economyLitres += economy.volumeLitres;
    }
  }
}
