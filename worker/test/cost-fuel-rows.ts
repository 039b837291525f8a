import { and, eq, lt } from "drizzle-orm";
import { fuelEconomy, type EconomyEntry } from "../../shared/costs/fuel-economy";
import { fuelEntryFlags } from "../../shared/costs/fuel-flags";
import { dayOf } from "../../shared/units/time-zone";
import type { Db } from "../../db/client";
import { fuelEntries } from "../../db/schema";
import { noRiseSeen } from "../fuel/rise-check";
import type { Context, costRange, FuelFilters } from "../reports/costs";

/**
 * The cost report's fuel as it was worked out before docs/decisions/0061: every fill-up read into
 * the Worker, flagged by shared/costs/fuel-flags.ts and shared/costs/fuel-check.ts and run through
 * shared/costs/fuel-economy.ts per vehicle and span, over each vehicle's whole log before the range's
 * end, as the Fuel page's economy (worker/fuel/economy.ts) reads it. Kept for the equivalence test
 * of the D1 path.
 */
export async function addFuelFromRows(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  filters: FuelFilters,
  ctx: Context,
) {
  const byVehicle = new Map<string, (EconomyEntry & { vehicleId: string })[]>();
  for (const filter of filters.log) {
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
  const noRise = await noRiseSeen(db, workspaceId, [...byVehicle.values()].flat(), ctx.now);
  for (const [vehicleId, entries] of byVehicle) {
    if (!ctx.tank.has(vehicleId)) continue;
    const flags = fuelEntryFlags(entries, ctx.tank.get(vehicleId) ?? null);
    for (const id of entries.map((e) => e.id).filter((id) => noRise.has(id)))
      flags.set(id, [...(flags.get(id) ?? []), "no_rise_seen"]);
    const flagged = entries.map((e) => ({ ...e, flags: flags.get(e.id) ?? [] }));
    for (const span of ctx.spans) {
      const economy = fuelEconomy(flagged, { from: span.start, to: span.end });
      const bucket = ctx.bucket(vehicleId, span.day)!;
      bucket.economyMiles += economy.distanceMiles;
      bucket.economyLitres += economy.volumeLitres;
    }
  }
}
