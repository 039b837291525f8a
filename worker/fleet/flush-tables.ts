import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { FleetModule, FlushRow } from "../../party/fleet/fold";
import type { Db } from "../db/client";
import { chunkRows } from "../lib/chunk";
import { versionOf } from "../sync/version";
import { alerts } from "../db/schema";

/**
 * The seam where per-fix modules plug into ingestion (docs/decisions/0016):
 * - FLEET_MODULES: the modules every accepted report is folded through (party/fleet/fold.ts),
 *   in order; each keeps its per-vehicle state under its name, stored with the vehicle's
 *   detector state and handed back on the next report.
 * - FLUSH_TABLES: the D1 tables their rows go to, by the name a FlushRow carries. Rows are
 *   upserted in the same transaction as the reports that made them (a repeated write is
 *   idempotent: the same key, the same values). A table with a `version` and a `workspace_id`
 *   column is synced: each row is stamped with its workspace's version of that write.
 */
export const FLEET_MODULES: readonly FleetModule[] = [];

export interface FlushTable {
  table: SQLiteTable;
  /** The conflict target: the row's key columns. */
  key: SQLiteColumn[];
}

export const FLUSH_TABLES: Record<string, FlushTable> = {
  // places and alerts (party/alerts/module.ts): one row per episode, upserted as it opens and ends
  alerts: { table: alerts, key: [alerts.id] },
};

/** The upserts of the modules' rows, a few statements per table whatever the number of rows. */
export function flushRows(db: Db, rows: FlushRow[], tables: Record<string, FlushTable> = FLUSH_TABLES): BatchItem<"sqlite">[] {
  const byTable = new Map<string, Record<string, unknown>[]>();
  for (const { table, row } of rows) byTable.set(table, [...(byTable.get(table) ?? []), row]);
  const writes: BatchItem<"sqlite">[] = [];
  for (const [name, tableRows] of byTable) {
    const target = tables[name];
    if (!target) throw new Error(`fleet module row for unregistered table ${name}`);
    const columns = getTableColumns(target.table) as Record<string, SQLiteColumn>;
    const keys = new Set(target.key.map((c) => c.name));
    const synced = "version" in columns && "workspaceId" in columns;
    const stamped = tableRows.map((row) => (synced ? { ...row, version: versionOf(String(row.workspaceId)) } : row));
    const set: Record<string, SQL> = {};
    for (const [field, column] of Object.entries(columns)) {
      if (!keys.has(column.name) && stamped.some((r) => field in r)) set[field] = sql.raw(`excluded."${column.name}"`);
    }
    const perRow = Object.keys(stamped[0] ?? {}).length + 1;
    for (const part of chunkRows(stamped, perRow)) {
      writes.push(db.insert(target.table).values(part).onConflictDoUpdate({ target: target.key, set }));
    }
  }
  return writes;
}
