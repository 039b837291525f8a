import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { DayRollup } from "../../party/reports/rollup";
import type { DailyRow, SummaryRow } from "../../shared/reports";
import { daysFrom } from "../../shared/time-zone";
import { metresPerSecondToMph, metresToMiles } from "../../shared/units";
import type { Db } from "../db/client";
import { vehicleDayRollups } from "../db/schema";
import type { ReportRange } from "./range";
import type { ReportVehicle } from "./vehicles";

/** Sums of day rollups: what a Summary row (a vehicle, the fleet) or a Daily row is made of. */
type Totals = Omit<DayRollup, "day">;

const zero: Totals = { distanceMetres: 0, drivingSeconds: 0, idlingSeconds: 0, movingMetres: 0, maxSpeed: 0, speedingEpisodes: 0, trips: 0, stops: 0, fuelUsedPercent: null };

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function add(a: Totals, b: Totals): Totals {
  return {
    distanceMetres: a.distanceMetres + b.distanceMetres,
    drivingSeconds: a.drivingSeconds + b.drivingSeconds,
    idlingSeconds: a.idlingSeconds + b.idlingSeconds,
    movingMetres: a.movingMetres + b.movingMetres,
    maxSpeed: Math.max(a.maxSpeed, b.maxSpeed),
    speedingEpisodes: a.speedingEpisodes + b.speedingEpisodes,
    trips: a.trips + b.trips,
    stops: a.stops + b.stops,
    fuelUsedPercent: a.fuelUsedPercent === null && b.fuelUsedPercent === null ? null : (a.fuelUsedPercent ?? 0) + (b.fuelUsedPercent ?? 0),
  };
}

/** Totals in the report's units: miles, whole seconds, mph. */
function summaryRow(vehicle: { id: string; name: string }, t: Totals): SummaryRow {
  return {
    vehicleId: vehicle.id,
    vehicleName: vehicle.name,
    distanceMiles: round(metresToMiles(t.distanceMetres), 2),
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

const dayColumns = {
  vehicleId: vehicleDayRollups.vehicleId,
  distanceMetres: vehicleDayRollups.distanceMetres,
  drivingSeconds: vehicleDayRollups.drivingSeconds,
  idlingSeconds: vehicleDayRollups.idlingSeconds,
  movingMetres: vehicleDayRollups.movingMetres,
  maxSpeed: vehicleDayRollups.maxSpeed,
  speedingEpisodes: vehicleDayRollups.speedingEpisodes,
  trips: vehicleDayRollups.trips,
  stops: vehicleDayRollups.stops,
  fuelUsedPercent: vehicleDayRollups.fuelUsedPercent,
};

const inRange = (workspaceId: string, range: ReportRange) =>
  and(eq(vehicleDayRollups.workspaceId, workspaceId), gte(vehicleDayRollups.day, range.fromDay), lte(vehicleDayRollups.day, range.toDay));

/**
 * Summary: one row per vehicle and the fleet total, from the day rollups alone (one grouped
 * query over (workspace, day): 30 rows per vehicle for a month, never its positions).
 */
export async function summaryReport(db: Db, workspaceId: string, range: ReportRange, vehicles: ReportVehicle[]) {
  const sums = await db
    .select({
      vehicleId: vehicleDayRollups.vehicleId,
      distanceMetres: sql<number>`sum(${vehicleDayRollups.distanceMetres})`,
      drivingSeconds: sql<number>`sum(${vehicleDayRollups.drivingSeconds})`,
      idlingSeconds: sql<number>`sum(${vehicleDayRollups.idlingSeconds})`,
      movingMetres: sql<number>`sum(${vehicleDayRollups.movingMetres})`,
      maxSpeed: sql<number>`max(${vehicleDayRollups.maxSpeed})`,
      speedingEpisodes: sql<number>`sum(${vehicleDayRollups.speedingEpisodes})`,
      trips: sql<number>`sum(${vehicleDayRollups.trips})`,
      stops: sql<number>`sum(${vehicleDayRollups.stops})`,
      fuelUsedPercent: sql<number | null>`sum(${vehicleDayRollups.fuelUsedPercent})`,
    })
    .from(vehicleDayRollups)
    .where(inRange(workspaceId, range))
    .groupBy(vehicleDayRollups.vehicleId)
    .all();
  const of = new Map(sums.map((s) => [s.vehicleId, s as Totals]));
  let fleet = zero;
  const rows = vehicles.map((v) => {
    const t = of.get(v.id) ?? zero;
    fleet = add(fleet, t);
    return summaryRow(v, t);
  });
  return { rows, total: summaryRow({ id: "", name: "Fleet total" }, fleet) };
}

/** At most this many rows in one answer (92 days of about 540 vehicles). */
export const MAX_DAILY_ROWS = 50_000;

/** Daily: the summary per vehicle per local day, every day of the range (zeros where none). */
export async function dailyReport(db: Db, workspaceId: string, range: ReportRange, vehicles: ReportVehicle[]) {
  const stored = await db.select({ ...dayColumns, day: vehicleDayRollups.day }).from(vehicleDayRollups).where(inRange(workspaceId, range)).all();
  const of = new Map(stored.map((r) => [`${r.vehicleId}\n${r.day}`, r as Totals]));
  const days = daysFrom(range.fromDay, range.toDay);
  const rows: DailyRow[] = [];
  for (const v of vehicles) {
    for (const day of days) {
      if (rows.length >= MAX_DAILY_ROWS) return { rows, truncated: true };
      rows.push({ day, ...summaryRow(v, of.get(`${v.id}\n${day}`) ?? zero) });
    }
  }
  return { rows, truncated: false };
}
