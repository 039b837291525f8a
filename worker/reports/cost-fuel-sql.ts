import { sql, type SQL } from "drizzle-orm";
import { OUTLIER_FACTOR, OUTLIER_MIN_STRETCHES } from "../../shared/costs/fuel-economy";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../db/client";
import { vehicles } from "../../db/schema";

/**
 * The cost report's fuel figures worked out in D1 (docs/decisions/0061, 0064): a year of a 1,000-vehicle
 * fleet's fill-ups is 600,000 rows, too many to read into the Worker in 2 s. These statements
 * answer a row per vehicle and span instead; economy reads the stored stretches
 * (migrations/0036, cut as shared/costs/fuel-economy.ts and shared/costs/fuel-flags.ts cut them; the
 * equivalence test, worker/reports/cost-report-sql.worker.test.ts, holds them to it on a random fleet).
 */

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
 * Fuel bought in span `span` (0 … n−1 of `spans`), per vehicle of the workspace that is not deleted:
 * read from the covering index alone, a vehicle at a time, and grouped by the vehicle alone, in the
 * index's own order. A span computed per row (a `CASE` over `at`, or even a constant) in the
 * `GROUP BY` made SQLite sort all 600,000 fill-ups of the bench's year first (docs/decisions/0095), so
 * a report by month sends one of these per month.
 */
export function fuelSpent(db: Db, workspaceId: string, spans: Spans, span: number, filter: SQL | undefined) {
  const end = spans.starts[span + 1] ?? spans.end;
  return db.all<FuelSpent>(sql`
    SELECT vehicle_id AS vehicleId, ${span} AS span,
      coalesce(sum(cost_cents), 0) AS cents, sum(volume_litres) AS litres
    FROM fuel_entries INDEXED BY fuel_entries_ws_vehicle_log_idx
    WHERE workspace_id = ${workspaceId} AND deleted = 0 AND at >= ${spans.starts[span]} AND at < ${end}
      AND ${filter ?? sql`1`}
      AND vehicle_id IN (SELECT id FROM vehicles WHERE workspace_id = ${workspaceId} AND deleted = 0)
    GROUP BY vehicle_id`);
}

/** The workspace's vehicles as the economy statement names them (`v`), for the chosen vehicles' filters. */
export const fleetRows = alias(vehicles, "v");

export interface EconomySpan {
  vehicleId: string;
  span: number;
  miles: number;
  litres: number;
}

/**
 * What makes a stored stretch of vehicle `f` doubtful beyond its log (docs/decisions/0064), judged as
 * the report reads: its largest fill over the vehicle's tank now, or a fill-up no rise was seen for
 * (`unchecked`: the stretches' closing fill-ups, one JSON array bound as one value whatever its length).
 */
const judgedClean = (unchecked: string) => sql`
  NOT (f.tank IS NOT NULL AND s.largest_litres > f.tank)
  AND s.close_id NOT IN (SELECT value FROM json_each(${unchecked}))`;

/** Vehicle `f`'s clean stretches closing before `end` (its whole history, as the Fuel page judges outliers), by rate. */
const cleanStretches = (workspaceId: string, end: number, unchecked: string) => sql`
  FROM fuel_stretches s INDEXED BY fuel_stretches_rate_idx
  WHERE s.workspace_id = ${workspaceId} AND s.vehicle_id = f.id AND s.rate IS NOT NULL AND s.close_at < ${end}
    AND ${judgedClean(unchecked)}`;

/**
 * Each vehicle's economy per span, as `fuelEconomy(entries, span)` adds it up before rounding: the
 * miles and litres of the stretches closed in the span that are neither doubtful nor far from the
 * vehicle's median miles per litre over its clean stretches (`economyOutliers`). The stretches are
 * stored (fuel_stretches, kept by triggers on fuel_entries) and read a vehicle at a time: how many
 * clean ones it has, then its median from the rate index (rows already in order, the middle one or
 * two), then its stretches in log order from the primary key, the vehicles walked in id order
 * (`vehicles_ws_id_idx`), so a single span groups them as they come: a span in the `GROUP BY`, even
 * a constant, or a walk in another order made SQLite sort every stretch first (docs/decisions/0095).
 * A report by month still sorts them. `filter` names the chosen vehicles on `fleetRows` (`v`).
 */
export function economyBySpan(
  db: Db,
  workspaceId: string,
  spans: Spans,
  uncheckedCloseIds: readonly string[],
  filter: SQL | undefined,
) {
  const unchecked = JSON.stringify(uncheckedCloseIds);
  const clean = cleanStretches(workspaceId, spans.end, unchecked);
  return db.all<EconomySpan>(sql`
    WITH fleet AS MATERIALIZED (
      SELECT v.id, v.fuel_tank_litres AS tank FROM vehicles v
      WHERE v.workspace_id = ${workspaceId} AND v.deleted = 0 AND ${filter ?? sql`1`}
    ),
    counted AS MATERIALIZED (SELECT f.id, f.tank, (SELECT count(*) ${clean}) AS clean FROM fleet f),
    judged AS MATERIALIZED (
      SELECT f.id, f.tank, CASE WHEN f.clean >= ${OUTLIER_MIN_STRETCHES} THEN (
        SELECT (min(rate) + max(rate)) / 2 FROM (SELECT s.rate, row_number() OVER (ORDER BY s.rate) AS n ${clean})
        WHERE n IN ((f.clean + 1) / 2, (f.clean + 2) / 2)
      ) END AS usual
      FROM counted f
    )
    SELECT v.id AS vehicleId, ${spanIndex("s.close_at", spans)} AS span, sum(s.miles) AS miles, sum(s.litres) AS litres
    FROM vehicles v INDEXED BY vehicles_ws_id_idx CROSS JOIN judged f ON f.id = v.id
      CROSS JOIN fuel_stretches s ON s.workspace_id = ${workspaceId} AND s.vehicle_id = v.id
    WHERE v.workspace_id = ${workspaceId} AND s.close_at >= ${spans.starts[0]} AND s.close_at < ${spans.end} AND NOT s.doubtful AND ${judgedClean(unchecked)}
      AND NOT (f.usual IS NOT NULL AND s.litres > 0
        AND (s.miles / s.litres > f.usual * ${OUTLIER_FACTOR} OR s.miles / s.litres < f.usual / ${OUTLIER_FACTOR}))
    GROUP BY ${spans.starts.length === 1 ? sql`v.id` : sql`v.id, span`}`);
}
