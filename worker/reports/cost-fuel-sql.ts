import { sql, type SQL } from "drizzle-orm";
import { OUTLIER_FACTOR, OUTLIER_MIN_STRETCHES } from "../../shared/costs/fuel-economy";
import type { Db } from "../../db/client";

/**
 * The cost report's fuel figures worked out in D1 (docs/decisions/0061): a year of a 1,000-vehicle
 * fleet's fill-ups is 600,000 rows, too many to read into the Worker in 2 s. These statements
 * answer a row per vehicle and span instead, and follow shared/costs/fuel-economy.ts and
 * shared/costs/fuel-flags.ts step for step (the equivalence test, worker/reports/cost-report-sql.worker.test.ts,
 * holds them to it on a random fleet).
 */

/** A stretch closing in the range may open before it: this much earlier log is read for economy. */
export const ECONOMY_LOOKBACK_DAYS = 92;

/** The spans a report adds up over, contiguous: each one's first instant, and the end (excluded) of the last. */
export interface Spans {
  starts: number[];
  end: number;
}

/** Which span `column` (an instant) falls in, 0 … n−1; the bounds are this module's own numbers, inlined. */
function spanIndex(column: string, spans: Spans): SQL {
  if (spans.starts.length === 1) return sql.raw("0");
  const cases = spans.starts.slice(1).map((start, i) => `WHEN ${column} < ${Math.trunc(start)} THEN ${i}`);
  return sql.raw(`(CASE ${cases.join(" ")} ELSE ${spans.starts.length - 1} END)`);
}

export interface FuelSpent {
  vehicleId: string;
  span: number;
  cents: number;
  litres: number;
}

/**
 * Fuel bought in the spans, per vehicle of the workspace that is not deleted, and span: read from
 * the covering index alone, a vehicle at a time (so a report by vehicle groups without a sort).
 */
export function fuelSpent(db: Db, workspaceId: string, spans: Spans, filter: SQL | undefined) {
  return db.all<FuelSpent>(sql`
    SELECT vehicle_id AS vehicleId, ${spanIndex("at", spans)} AS span,
      coalesce(sum(cost_cents), 0) AS cents, sum(volume_litres) AS litres
    FROM fuel_entries INDEXED BY fuel_entries_ws_vehicle_log_idx
    WHERE workspace_id = ${workspaceId} AND deleted = 0 AND at >= ${spans.starts[0]} AND at < ${spans.end}
      AND ${filter ?? sql`1`}
      AND vehicle_id IN (SELECT id FROM vehicles WHERE workspace_id = ${workspaceId} AND deleted = 0)
    GROUP BY vehicle_id, span`);
}

export interface EconomySpan {
  vehicleId: string;
  span: number;
  miles: number;
  litres: number;
}

/**
 * Each fill-up of the log read (the range and ECONOMY_LOOKBACK_DAYS before it) in its vehicle's
 * order (time, then id: the covering index's order, so no sort), with `backwards` (shared/costs/fuel-flags.ts:
 * an odometer below the highest one before it) and `grp`, the full fills before it: a stretch is
 * the fills of one `grp` above 0, closed by its full one, opened by the full one of the `grp` before.
 */
const orderedLog = (workspaceId: string, from: number, to: number, filter: SQL | undefined) => sql`
  SELECT vehicle_id, at, volume_litres AS litres, full_tank AS full, odometer_miles AS odo,
    coalesce(odometer_miles < highest_before, 0) AS backwards, coalesce(fulls_before, 0) AS grp
  FROM (
    SELECT vehicle_id, at, volume_litres, full_tank, odometer_miles,
      max(odometer_miles) OVER before AS highest_before, sum(full_tank) OVER before AS fulls_before
    FROM fuel_entries INDEXED BY fuel_entries_ws_vehicle_log_idx
    WHERE workspace_id = ${workspaceId} AND deleted = 0 AND at >= ${from} AND at < ${to} AND ${filter ?? sql`1`}
      AND vehicle_id IN (SELECT id FROM vehicles WHERE workspace_id = ${workspaceId} AND deleted = 0)
    WINDOW before AS (PARTITION BY vehicle_id ORDER BY at, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  )`;

/**
 * Stretches (shared/costs/fuel-economy.ts `stretchesOf`): closing time, miles (0 without both odometers),
 * litres of its fills, and doubtful (an odometer missing, no miles, the opening fill-up's odometer
 * backwards, or a fill flagged: backwards, or over the tank, which is its largest fill over it).
 */
const stretchesSql = (log: SQL) => sql`
  SELECT vehicle_id, close_at, litres,
    CASE WHEN open_odo IS NOT NULL AND close_odo IS NOT NULL THEN close_odo - open_odo ELSE 0 END AS miles,
    (open_odo IS NULL OR close_odo IS NULL OR close_odo - open_odo <= 0 OR open_backwards OR any_backwards
      OR (tank IS NOT NULL AND largest > tank)) AS doubtful
  FROM (
    SELECT g.*, v.fuel_tank_litres AS tank,
      lag(close_odo) OVER by_grp AS open_odo, lag(close_backwards) OVER by_grp AS open_backwards
    FROM (
      SELECT vehicle_id, grp, max(full) AS closed, max(CASE WHEN full THEN at END) AS close_at,
        sum(litres) AS litres, max(litres) AS largest, max(backwards) AS any_backwards,
        max(CASE WHEN full THEN odo END) AS close_odo, max(CASE WHEN full THEN backwards END) AS close_backwards
      FROM (${log}) GROUP BY vehicle_id, grp
    ) g JOIN vehicles v ON v.id = g.vehicle_id
    WINDOW by_grp AS (PARTITION BY g.vehicle_id ORDER BY grp)
  )
  WHERE grp > 0 AND closed`;

/**
 * Each vehicle's economy per span, as `fuelEconomy(entries, span)` adds it up before rounding: the
 * miles and litres of the stretches closed in the span that are neither doubtful nor far from the
 * vehicle's median miles per litre over all its clean stretches read (`economyOutliers`).
 * The median is looked up per stretch by a subquery on `usual` materialized once: SQLite indexes
 * it (an automatic index on vehicle_id), where `LEFT JOIN usual` scanned all of it for each of
 * the ~500,000 stretches of a large fleet's year (EXPLAIN QUERY PLAN: `SCAN u LEFT-JOIN`).
 */
export function economyBySpan(db: Db, workspaceId: string, spans: Spans, lookbackMs: number, filter: SQL | undefined) {
  const log = orderedLog(workspaceId, spans.starts[0]! - lookbackMs, spans.end, filter);
  return db.all<EconomySpan>(sql`
    WITH stretch AS MATERIALIZED (${stretchesSql(log)}),
    clean AS (
      SELECT vehicle_id, miles / litres AS rate,
        row_number() OVER (PARTITION BY vehicle_id ORDER BY miles / litres) AS n, count(*) OVER (PARTITION BY vehicle_id) AS of
      FROM stretch WHERE NOT doubtful AND litres > 0
    ),
    usual AS MATERIALIZED (
      SELECT vehicle_id, (min(rate) + max(rate)) / 2 AS rate FROM clean
      WHERE of >= ${OUTLIER_MIN_STRETCHES} AND n IN ((of + 1) / 2, (of + 2) / 2) GROUP BY vehicle_id
    )
    SELECT s.vehicle_id AS vehicleId, ${spanIndex("s.close_at", spans)} AS span,
      sum(s.miles) AS miles, sum(s.litres) AS litres
    FROM (SELECT *, (SELECT rate FROM usual WHERE usual.vehicle_id = stretch.vehicle_id) AS usual_rate FROM stretch) s
    WHERE s.close_at >= ${spans.starts[0]} AND s.close_at < ${spans.end} AND NOT s.doubtful
      AND NOT (s.usual_rate IS NOT NULL AND s.litres > 0
        AND (s.miles / s.litres > s.usual_rate * ${OUTLIER_FACTOR} OR s.miles / s.litres < s.usual_rate / ${OUTLIER_FACTOR}))
    GROUP BY s.vehicle_id, span`);
}
