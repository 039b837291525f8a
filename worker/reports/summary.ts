import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { addVehicles, FIGURE_NAMES, FIGURE_TOTALS, noFigures, type DayFigures } from "../../domain/reports/day-figures";
import type { DailyRow, SummaryRow } from "../../shared/reports/reports";
import { daysFrom } from "../../shared/units/time-zone";
import { distanceMilesOf } from "../../shared/costs/cost-figures";
import { metresPerSecondToMph } from "../../shared/units/units";
import type { Db } from "../../db/client";
import { vehicleDayRollups } from "../../db/schema";
import type { ReportRange } from "./range";
import type { ReportVehicle } from "./report-vehicles";

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** DayFigures in the report's units: miles, whole seconds, mph. */
function summaryRow(vehicle: { id: string; name: string }, t: DayFigures): SummaryRow {
  return {
    vehicleId: vehicle.id,
    vehicleName: vehicle.name,
    distanceMiles: distanceMilesOf(t.distanceMetres),
    drivingSeconds: Math.round(t.drivingSeconds),
    idlingSeconds: Math.round(t.idlingSeconds),
    trips: t.trips,
    stops: t.stops,
    maxSpeedMph: round(metresPerSecondToMph(t.maxSpeed), 1),
    averageSpeedMph: t.drivingSeconds > 0 ? round(metresPerSecondToMph(t.movingMetres / t.drivingSeconds), 1) : 0,
    speedingEpisodes: t.speedingEpisodes,
    fuelUsedPercent: t.fuelUsedPercent === null ? null : round(t.fuelUsedPercent, 1),
  };
}

/** Each figure's column, read as it is (Daily) or totalled over the range by FIGURE_TOTALS (Summary). */
const figureColumns = (read: (column: SQLiteColumn, name: keyof DayFigures) => SQLiteColumn | SQL<number>) =>
  Object.fromEntries(FIGURE_NAMES.map((name) => [name, read(vehicleDayRollups[name], name)])) as Record<
    keyof DayFigures,
    SQL<number>
  >;

const inRange = (workspaceId: string, range: ReportRange) =>
  and(
    eq(vehicleDayRollups.workspaceId, workspaceId),
    gte(vehicleDayRollups.day, range.fromDay),
    lte(vehicleDayRollups.day, range.toDay),
  );

/**
 * Summary: one row per vehicle and the fleet total, from the day rollups alone (one grouped
 * query over (workspace, day): 30 rows per vehicle for a month, never its positions).
 */
export async function summaryReport(db: Db, workspaceId: string, range: ReportRange, vehicles: ReportVehicle[]) {
  const sums = await db
    .select({
      vehicleId: vehicleDayRollups.vehicleId,
      ...figureColumns((column, name) => sql<number>`${sql.raw(FIGURE_TOTALS[name])}(${column})`),
    })
    .from(vehicleDayRollups)
    .where(inRange(workspaceId, range))
    .groupBy(vehicleDayRollups.vehicleId)
    .all();
  const of = new Map(sums.map((s) => [s.vehicleId, s as DayFigures]));
  let fleet = noFigures();
  const rows = vehicles.map((v) => {
    const t = of.get(v.id) ?? noFigures();
    fleet = addVehicles(fleet, t);
    return summaryRow(v, t);
  });
  return { rows, total: summaryRow({ id: "", name: "Fleet total" }, fleet) };
}

/** At most this many rows in one answer (92 days of about 540 vehicles). */
export const MAX_DAILY_ROWS = 50_000;

/** Daily: the summary per vehicle per local day, every day of the range (zeros where none). */
export async function dailyReport(db: Db, workspaceId: string, range: ReportRange, vehicles: ReportVehicle[]) {
  const stored = await db
    .select({
      vehicleId: vehicleDayRollups.vehicleId,
      day: vehicleDayRollups.day,
      ...figureColumns((column) => column),
    })
    .from(vehicleDayRollups)
    .where(inRange(workspaceId, range))
    .all();
  const of = new Map(stored.map((r) => [`${r.vehicleId}\n${r.day}`, r as DayFigures]));
  const days = daysFrom(range.fromDay, range.toDay);
  const rows: DailyRow[] = [];
  for (const v of vehicles) {
    for (const day of days) {
      if (rows.length >= MAX_DAILY_ROWS) return { rows, truncated: true };
      rows.push({ day, ...summaryRow(v, of.get(`${v.id}\n${day}`) ?? noFigures()) });
    }
  }
  return { rows, truncated: false };
}
