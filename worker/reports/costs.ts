import { and, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { costRangeProblem, monthsOf, type CostReportQuery, type CostRow } from "../../shared/costs/cost-report";
import { addDays, startOfDay } from "../../shared/units/time-zone";
import { costFigures } from "../../shared/costs/cost-figures";
import { LITRES_PER_US_GALLON } from "../../shared/units/units";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { expenses, fuelEntries, serviceEntries, vehicleDayRollups, vehicles as vehiclesTable } from "../../db/schema";
import { badRequest } from "../lib/errors";
import { economyBySpan, fuelSpent, fleetRows, type Spans } from "./cost-fuel-sql";
import { uncheckedStretches } from "./unchecked-stretches";
import { reportVehicles, type ReportVehicle } from "./report-vehicles";

/** What one row (a vehicle, a month, the fleet) adds up, before rounding. */
interface Costs {
  fuelCostCents: number;
  fuelLitres: number;
  metres: number;
  /** the clean full-to-full stretches' miles and litres, for economy */
  economyMiles: number;
  economyLitres: number;
  serviceCostCents: number;
  /** work orders' labour and parts, within serviceCostCents (shared/costs/work-order-costs.ts) */
  laborCostCents: number;
  partsCostCents: number;
  expensesByKind: Record<string, number>;
}

const noCosts = (): Costs => ({
  fuelCostCents: 0,
  fuelLitres: 0,
  metres: 0,
  economyMiles: 0,
  economyLitres: 0,
  serviceCostCents: 0,
  laborCostCents: 0,
  partsCostCents: 0,
  expensesByKind: {},
});

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function costRow(c: Costs): CostRow {
  const expenseCostCents = Object.values(c.expensesByKind).reduce((s, v) => s + v, 0);
  const figures = costFigures({
    fuelCostCents: c.fuelCostCents,
    serviceCostCents: c.serviceCostCents,
    expenseCostCents,
    distanceMetres: c.metres,
  });
  return {
    fuelCostCents: c.fuelCostCents,
    fuelLitres: round(c.fuelLitres, 2),
    distanceMiles: figures.distanceMiles,
    mpg: c.economyLitres > 0 ? round(c.economyMiles / (c.economyLitres / LITRES_PER_US_GALLON), 1) : null,
    serviceCostCents: c.serviceCostCents,
    laborCostCents: c.laborCostCents,
    partsCostCents: c.partsCostCents,
    expenseCostCents,
    expensesByKind: c.expensesByKind,
    totalCostCents: figures.totalCostCents,
    costPerMileCents: figures.costPerMileCents,
  };
}

/** The range's local days and instants; 400 naming the field when out of bounds. */
export function costRange(from: string, to: string, timeZone: string) {
  const problem = costRangeProblem(from, to);
  if (problem) throw badRequest(problem, { [problem.startsWith("`from`") ? "from" : "to"]: [problem] });
  return { fromDay: from, toDay: to, start: startOfDay(from, timeZone), end: startOfDay(addDays(to, 1), timeZone) };
}

/** The chosen vehicles' ids as `IN` lists, or one list-less pass over the whole workspace. */
const vehicleFilters = (column: SQLiteColumn, chosen: string[], all: ReportVehicle[]) =>
  chosen.length ? inLists(all.map((v) => v.id)).map((part) => inArray(column, part)) : [undefined];

type Bucket = (vehicleId: string, day: string) => Costs | undefined;
export type { Costs };

/** The chosen vehicles' lists, as filters on the fill-ups (fuel bought) and on the vehicles economy reads. */
export interface FuelFilters {
  log: (SQL | undefined)[];
  stretches: (SQL | undefined)[];
}

/** Fuel bought in the range into its bucket, and each vehicle's economy over its buckets' spans, from D1's sums. */
async function addFuel(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  filters: FuelFilters,
  ctx: Context,
) {
  const spans: Spans = { starts: ctx.spans.map((s) => s.start), end: range.end };
  const unchecked = await uncheckedStretches(db, workspaceId, new Set(ctx.tank.keys()), range.end, ctx.now);
  for (const [i, filter] of filters.log.entries()) {
    // Fuel bought a span a statement (each groups in index order: docs/decisions/0095), all at once
    // beside economy; a span's rows are still added to its bucket in vehicle order, so the sums are the same.
    const [spent, economy] = await Promise.all([
      Promise.all(spans.starts.map((_, span) => fuelSpent(db, workspaceId, spans, span, filter))),
      economyBySpan(db, workspaceId, spans, unchecked, filters.stretches[i]),
    ]);
    for (const r of spent.flat()) {
      const bucket = ctx.bucket(r.vehicleId, ctx.spans[r.span]!.day);
      if (!bucket) continue;
      bucket.fuelCostCents += r.cents;
      bucket.fuelLitres += r.litres;
    }
    for (const r of economy) {
      const bucket = ctx.bucket(r.vehicleId, ctx.spans[r.span]!.day);
      if (!bucket) continue;
      // fuelEconomy's own rounding of one vehicle's span, so the sums are the ones it gave.
      bucket.economyMiles += round(r.miles, 1);
      bucket.economyLitres += round(r.litres, 2);
    }
  }
}

/** How the report gathers fuel into its buckets (the equivalence test passes the per-row original). */
export type AddFuel = typeof addFuel;

export interface Context {
  timeZone: string;
  bucket: Bucket;
  /** the stretches economy is read over: the whole range, or each month (a day in it names the bucket) */
  spans: { day: string; start: number; end: number }[];
  /** each covered vehicle's tank, for the over-the-tank flag */
  tank: Map<string, number | null>;
  /** when the report is read: `no_rise_seen` depends on it (shared/costs/fuel-check.ts) */
  now: number;
}

/**
 * GPS distance (the day rollups), per vehicle and local month, from the covering index that holds
 * them a vehicle and a month at a time (migrations/0051_cost_report_in_index_order.sql): grouped
 * in its order, with no sort of the range's rows (docs/decisions/0095). `substr(day, 1, 7)` is the
 * index's own expression, so the month bounds seek in it; the vehicles are the workspace's live
 * ones, the only ones with a bucket.
 */
async function addDistance(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  filters: (SQL | undefined)[],
  ctx: Context,
) {
  const month = (day: string) => day.slice(0, 7);
  for (const filter of filters) {
    const rows = await db.all<{ vehicleId: string; month: string; metres: number }>(sql`
      SELECT vehicle_id AS vehicleId, substr(day, 1, 7) AS month, sum(distance_metres) AS metres
      FROM vehicle_day_rollups INDEXED BY vehicle_day_rollups_ws_vehicle_month_idx
      WHERE workspace_id = ${workspaceId}
        AND vehicle_id IN (SELECT id FROM vehicles WHERE workspace_id = ${workspaceId} AND deleted = 0)
        AND substr(day, 1, 7) >= ${month(range.fromDay)} AND substr(day, 1, 7) <= ${month(range.toDay)}
        AND day >= ${range.fromDay} AND day <= ${range.toDay} AND ${filter ?? sql`1`}
      GROUP BY vehicle_id, substr(day, 1, 7)`);
    for (const r of rows) {
      const bucket = ctx.bucket(r.vehicleId, `${r.month}-01`);
      if (bucket) bucket.metres += r.metres;
    }
  }
}

/** A dated cost table (service entries, expenses): the columns the report sums. */
interface DatedCosts {
  workspaceId: SQLiteColumn;
  vehicleId: SQLiteColumn;
  date: SQLiteColumn;
  costCents: SQLiteColumn;
  deleted: SQLiteColumn;
}

/** What each row of a dated cost table adds: its cost, and for service its labour and parts (a work order's split). */
interface DatedSums {
  cents: number;
  kind: string;
  labor: number;
  parts: number;
}

/**
 * A dated cost table's live rows in the range, summed per vehicle, local month (their date is
 * already the workspace's day) and `kind` when given (expenses), each sum added by `add`.
 */
async function addDatedCosts(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  source: {
    table: SQLiteTable;
    columns: DatedCosts;
    kind?: SQLiteColumn;
    split?: { labor: SQLiteColumn; parts: SQLiteColumn };
    filters: (SQL | undefined)[];
  },
  add: (costs: Costs, sums: DatedSums) => void,
  ctx: Context,
) {
  const { table, columns: c, kind = sql`''`, split, filters } = source;
  const sumOf = (column: SQLiteColumn | undefined) =>
    column ? sql<number>`coalesce(sum(${column}), 0)` : sql<number>`0`;
  const month = sql<string>`substr(${c.date}, 1, 7)`;
  for (const filter of filters) {
    const rows = await db
      .select({
        vehicleId: sql<string>`${c.vehicleId}`,
        month,
        kind: sql<string>`${kind}`,
        cents: sql<number>`coalesce(sum(${c.costCents}), 0)`,
        labor: sumOf(split?.labor),
        parts: sumOf(split?.parts),
      })
      .from(table)
      .where(
        and(
          eq(c.workspaceId, workspaceId),
          eq(c.deleted, false),
          gte(c.date, range.fromDay),
          lte(c.date, range.toDay),
          filter,
        ),
      )
      .groupBy(c.vehicleId, month, kind)
      .all();
    for (const r of rows) {
      const bucket = ctx.bucket(r.vehicleId, `${r.month}-01`);
      if (bucket) add(bucket, r);
    }
  }
}

/**
 * GET /api/reports/costs: per vehicle or per local month, and the fleet total. Reads figures grouped
 * in D1: rollups, service and expenses by vehicle and month, fuel bought by vehicle and span, and
 * economy from the stored full-to-full stretches (docs/decisions/0064) over the range or each month.
 */
export async function costReport(
  db: Db,
  workspaceId: string,
  timeZone: string,
  query: CostReportQuery,
  fuel: AddFuel = addFuel,
) {
  const range = costRange(query.from, query.to, timeZone);
  const covered = await reportVehicles(db, workspaceId, query.vehicleId);
  const months = monthsOf(range.fromDay, range.toDay);
  const buckets = new Map<string, Costs>(
    (query.by === "month" ? months : covered.map((v) => v.id)).map((k) => [k, noCosts()]),
  );
  const ids = new Set(covered.map((v) => v.id));
  const bucket: Bucket = (vehicleId, day) =>
    ids.has(vehicleId) ? buckets.get(query.by === "month" ? day.slice(0, 7) : vehicleId) : undefined;
  const monthSpan = (m: string) => {
    const first = m === months[0] ? range.fromDay : `${m}-01`;
    const next = addDays(`${m}-01`, 32).slice(0, 7) + "-01";
    return { day: first, start: startOfDay(first, timeZone), end: Math.min(range.end, startOfDay(next, timeZone)) };
  };
  const tanks = await vehicleTanks(db, workspaceId, covered);
  const spans =
    query.by === "month" ? months.map(monthSpan) : [{ day: range.fromDay, start: range.start, end: range.end }];
  const ctx: Context = { timeZone, bucket, spans, tank: tanks, now: Date.now() };
  await readCosts(db, workspaceId, range, { chosen: query.vehicleId, covered }, ctx, fuel);
  return answer(query.by, range, covered, buckets);
}

/** Every figure into the buckets; independent reads, at once: each adds to its own fields, in its own rows' order. */
async function readCosts(
  db: Db,
  workspaceId: string,
  range: ReturnType<typeof costRange>,
  { chosen, covered }: { chosen: string[]; covered: ReportVehicle[] },
  ctx: Context,
  fuel: AddFuel,
) {
  const filters = (column: SQLiteColumn) => vehicleFilters(column, chosen, covered);
  await Promise.all([
    fuel(db, workspaceId, range, { log: filters(fuelEntries.vehicleId), stretches: filters(fleetRows.id) }, ctx),
    addDistance(db, workspaceId, range, filters(vehicleDayRollups.vehicleId), ctx),
    addDatedCosts(
      db,
      workspaceId,
      range,
      {
        table: serviceEntries,
        columns: serviceEntries,
        split: { labor: serviceEntries.laborCents, parts: serviceEntries.partsCents },
        filters: filters(serviceEntries.vehicleId),
      },
      (costs, r) => {
        costs.serviceCostCents += r.cents;
        costs.laborCostCents += r.labor;
        costs.partsCostCents += r.parts;
      },
      ctx,
    ),
    addDatedCosts(
      db,
      workspaceId,
      range,
      { table: expenses, columns: expenses, kind: expenses.kind, filters: filters(expenses.vehicleId) },
      (costs, { cents, kind }) => (costs.expensesByKind[kind] = (costs.expensesByKind[kind] ?? 0) + cents),
      ctx,
    ),
  ]);
}

async function vehicleTanks(db: Db, workspaceId: string, covered: ReportVehicle[]) {
  const rows = await db
    .select({ id: vehiclesTable.id, tank: vehiclesTable.fuelTankLitres })
    .from(vehiclesTable)
    .where(eq(vehiclesTable.workspaceId, workspaceId))
    .all();
  const ids = new Set(covered.map((v) => v.id));
  return new Map(rows.filter((r) => ids.has(r.id)).map((r) => [r.id, r.tank]));
}

function answer(
  by: CostReportQuery["by"],
  range: { fromDay: string; toDay: string },
  covered: ReportVehicle[],
  buckets: Map<string, Costs>,
) {
  const fleet = noCosts();
  for (const c of buckets.values()) {
    fleet.fuelCostCents += c.fuelCostCents;
    fleet.fuelLitres += c.fuelLitres;
    fleet.metres += c.metres;
    fleet.economyMiles += c.economyMiles;
    fleet.economyLitres += c.economyLitres;
    fleet.serviceCostCents += c.serviceCostCents;
    fleet.laborCostCents += c.laborCostCents;
    fleet.partsCostCents += c.partsCostCents;
    for (const [kind, cents] of Object.entries(c.expensesByKind))
      fleet.expensesByKind[kind] = (fleet.expensesByKind[kind] ?? 0) + cents;
  }
  const rows: CostRow[] =
    by === "month"
      ? [...buckets].map(([month, c]) => ({ month, ...costRow(c) }))
      : covered.map((v) => ({ vehicleId: v.id, vehicleName: v.name, ...costRow(buckets.get(v.id)!) }));
  return { from: range.fromDay, to: range.toDay, by, rows, total: costRow(fleet) };
}
