import { getTableColumns } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { FlushRow } from "../../domain/fold/fold";
import { DAY_ROLLUPS_TABLE, EVENT_ROLLUPS_TABLE, HOUR_DRIVING_TABLE } from "../../domain/reports/rollup-module";
import { ENGINE_HOURS_TABLE } from "../../domain/fold/engine-hours";
import { FUEL_EVENTS_TABLE } from "../../domain/fuel/fuel-watch-module";
import { bulkInsert, bulkUpdate } from "../../db/bulk";
import type { LiveWrites } from "../../db/client";
import {
  alerts,
  eventRollups,
  jobs,
  vehicleDayRollups,
  vehicleEvents,
  vehicles,
  workspaceHourDriving,
} from "../../db/schema";
import { JOB_PROGRESS_TABLE } from "../../domain/jobs/module";
import { FINAL_STATUSES, STATUS_RANK } from "../../domain/jobs/planned-job";
import { sqlCase, sqlList } from "../../db/sql-case";

/**
 * The D1 tables the fleet modules' rows go to (docs/decisions/0016), by the name a FlushRow
 * carries; the modules themselves are listed in domain/fleet-modules.ts. Rows are upserted in the
 * same transaction as the reports that made them (a repeated write is idempotent: the same key,
 * the same values). A table with a `version` and a `workspace_id` column is synced: each row is
 * stamped with its workspace's version of that write.
 */
export interface FlushTable {
  table: SQLiteTable;
  /** The conflict target: the row's key columns. */
  key: SQLiteColumn[];
  /**
   * Columns of an existing row, updated and never inserted (a vehicle's engine hours: the row is
   * the vehicle's own), scoped to the row's workspace and not stamped (nothing synced changes).
   */
  updateOnly?: {
    scope: SQLiteColumn;
    /** A synced row (a job): stamped with the workspace's version of the write, so pulls carry it. */
    stamp?: SQLiteColumn;
    /** Only rows this holds for (db/bulk.ts bulkUpdate). */
    guard?: (newValue: (column: SQLiteColumn) => string) => string;
  };
  /**
   * Columns that add up (the workspace's driving per hour, docs/decisions/0097): each row is one
   * contribution, named by its key and its `source` field (a vehicle's hour, which the object's
   * pending store keeps apart and replaces when given again); the rows of one key are summed in a
   * flush and added to the stored row, whose other columns are the key alone.
   */
  adds?: { columns: SQLiteColumn[]; source: string };
}

/** How far along a status is, in SQL: generated from domain/jobs/planned-job.ts STATUS_RANK, the one definition. */
export const statusRank = (expression: string) => sqlCase(expression, STATUS_RANK);

export const FLUSH_TABLES: Record<string, FlushTable> = {
  [DAY_ROLLUPS_TABLE]: { table: vehicleDayRollups, key: [vehicleDayRollups.vehicleId, vehicleDayRollups.day] },
  [EVENT_ROLLUPS_TABLE]: { table: eventRollups, key: [eventRollups.eventId] },
  // the workspace's driving per local hour (domain/reports/hour-driving.ts): each vehicle's hour adds to it
  [HOUR_DRIVING_TABLE]: {
    table: workspaceHourDriving,
    key: [workspaceHourDriving.workspaceId, workspaceHourDriving.day, workspaceHourDriving.hour],
    adds: { columns: [workspaceHourDriving.drivingMetres, workspaceHourDriving.drivingSeconds], source: "vehicleId" },
  },
  // places and alerts (domain/alerts/module.ts): one row per episode, upserted as it opens and ends
  alerts: { table: alerts, key: [alerts.id] },
  // engine hours (domain/fold/engine-hours.ts): the vehicle's engine_seconds column
  [ENGINE_HOURS_TABLE]: { table: vehicles, key: [vehicles.id], updateOnly: { scope: vehicles.workspaceId } },
  // refuels and fuel drops (domain/fuel/fuel-watch-module.ts): timeline events beside trips and stops
  [FUEL_EVENTS_TABLE]: { table: vehicleEvents, key: [vehicleEvents.id] },
  // job tracking (domain/jobs/module.ts): a job's status, stamps, ETA and late, on its own row. A
  // row the flush finds further along (the driver's "done", a cancellation, a planner's delete)
  // keeps what it has: what the object folded before it heard of that write never moves it back.
  [JOB_PROGRESS_TABLE]: {
    table: jobs,
    key: [jobs.id],
    updateOnly: {
      scope: jobs.workspaceId,
      stamp: jobs.version,
      guard: (newValue) =>
        `"jobs"."deleted" = 0 AND "jobs"."status" NOT IN ${sqlList(FINAL_STATUSES)} AND ${statusRank(newValue(jobs.status))} >= ${statusRank('"jobs"."status"')}`,
    },
  },
};

/** The upserts of the modules' rows: one bulk statement per table (db/bulk.ts), whatever the number of rows. */
export function flushRows(
  db: LiveWrites,
  rows: FlushRow[],
  tables: Record<string, FlushTable> = FLUSH_TABLES,
): BatchItem<"sqlite">[] {
  const byTable = new Map<string, Record<string, unknown>[]>();
  for (const { table, row } of rows) byTable.set(table, [...(byTable.get(table) ?? []), row]);
  // A row rewritten by several fixes of one batch (a vehicle's day) is written once, as last seen.
  for (const [name, tableRows] of byTable) {
    const target = tables[name];
    if (target) byTable.set(name, [...new Map(tableRows.map((row) => [rowKey(target, row), row])).values()]);
  }
  const writes: BatchItem<"sqlite">[] = [];
  for (const [name, tableRows] of byTable) {
    const target = tables[name];
    if (!target) throw new Error(`fleet module row for unregistered table ${name}`);
    if (target.updateOnly) {
      writes.push(...updateRows(db, target, target.updateOnly, tableRows));
      continue;
    }
    if (target.adds) {
      writes.push(...addRows(db, target, target.adds.columns, tableRows));
      continue;
    }
    const columns = getTableColumns(target.table) as Record<string, SQLiteColumn>;
    const keys = new Set(target.key.map((c) => c.name));
    const stamp = "version" in columns && "workspaceId" in columns ? columns.version : undefined;
    const set = Object.entries(columns)
      .filter(([field, column]) => !keys.has(column.name) && (column === stamp || tableRows.some((r) => field in r)))
      .map(([, column]) => column);
    writes.push(
      ...bulkInsert(db, target.table, tableRows, { onConflict: { target: target.key, set }, stampVersion: stamp }),
    );
  }
  return writes;
}

/** An update-only table's rows, one bulk update per workspace (a flush has one), the scope column matched, not written. */
function updateRows(
  db: LiveWrites,
  target: FlushTable,
  { scope, stamp, guard }: NonNullable<FlushTable["updateOnly"]>,
  rows: Record<string, unknown>[],
) {
  const scopeField = fieldOf(target, scope);
  const byScope = new Map<string, Record<string, unknown>[]>();
  for (const { [scopeField]: value, ...rest } of rows)
    byScope.set(String(value), [...(byScope.get(String(value)) ?? []), rest]);
  return [...byScope].flatMap(([value, scoped]) =>
    bulkUpdate(db, target.table, scoped, {
      key: target.key[0]!,
      scope: { column: scope, value },
      ...(stamp && { stampVersion: stamp }),
      ...(guard && { guard }),
    }),
  );
}

/** An adding table's contributions, summed per key, added to the stored rows in one bulk upsert. */
function addRows(db: LiveWrites, target: FlushTable, columns: SQLiteColumn[], rows: Record<string, unknown>[]) {
  const keyFields = target.key.map((c) => fieldOf(target, c));
  const addFields = columns.map((c) => fieldOf(target, c));
  const sums = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const id = keyFields.map((f) => String(row[f])).join("\n");
    const sum = sums.get(id) ?? {
      ...Object.fromEntries(keyFields.map((f) => [f, row[f]])),
      ...Object.fromEntries(addFields.map((f) => [f, 0])),
    };
    for (const f of addFields) sum[f] = Number(sum[f]) + Number(row[f] ?? 0);
    sums.set(id, sum);
  }
  return bulkInsert(db, target.table, [...sums.values()], {
    onConflict: { target: target.key, set: [], add: columns },
  });
}

/**
 * What names a row of its table: its key columns' values (a later row of the same key replaces
 * it), and for an adding table the contribution's source too.
 */
export function rowKey(target: FlushTable, row: Record<string, unknown>): string {
  const key = target.key.map((c) => String(row[fieldOf(target, c)]));
  if (target.adds) key.push(String(row[target.adds.source]));
  return key.join("\n");
}

/** The row field (drizzle's key) of one of a table's columns. */
function fieldOf(target: FlushTable, column: SQLiteColumn): string {
  const entry = Object.entries(getTableColumns(target.table)).find(([, c]) => c === column);
  return entry ? entry[0] : column.name;
}
