import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { LiveWrites } from "./client";

/** The rows' JSON per statement, under D1's 100 KB per SQL statement with room for the rest. */
export const BULK_JSON_CHARS = 80_000;

export interface BulkOptions {
  /** Skip rows whose key exists, or update these columns of the existing row (`add`: add the new value to the stored one). */
  onConflict: "nothing" | { target: SQLiteColumn[]; set: SQLiteColumn[]; add?: SQLiteColumn[] };
  /** A synced table: this column gets the new version of the row's workspace (read inside the transaction). */
  stampVersion?: SQLiteColumn;
}

/**
 * Writes any number of rows in one statement per BULK_JSON_CHARS of them: `INSERT ... SELECT
 * ... FROM json_each('[...]')`, the rows as one JSON literal. D1 allows 100 bound parameters per
 * statement, so drizzle's multi-row inserts take 6 telemetry or position rows at a time; a write
 * of a whole fleet (the workspace object's flush, docs/decisions/0016) must stay a handful of
 * statements whatever the number of vehicles. Values go through each column's own encoding
 * (booleans as 0/1, JSON columns as text), so the rows are the table's `$inferInsert` shape.
 *
 * The JSON is a quoted SQL literal, not a bound parameter: drizzle's D1 batch cannot bind the
 * parameters of a raw statement (its `SQLiteRaw` has no prepared statement). A SQLite string
 * literal has one escape, a doubled quote, applied to the whole JSON text: no value can end it.
 */
export function bulkInsert<T extends SQLiteTable>(
  db: Pick<LiveWrites, "run">,
  table: T,
  rows: T["$inferInsert"][],
  options: BulkOptions,
) {
  const columns = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>);
  const fields = new Set(rows.flatMap((r) => Object.keys(r)));
  const written = columns.filter(([field, column]) => fields.has(field) && column !== options.stampVersion);
  const encoded = rows.map((row) => {
    const r = row as Record<string, unknown>;
    return JSON.stringify(
      written.map(([field, column]) =>
        r[field] === undefined || r[field] === null ? null : column.mapToDriverValue(r[field]),
      ),
    );
  });
  const statements = [];
  for (let i = 0; i < encoded.length;) {
    let size = 0;
    let end = i;
    while (end < encoded.length && (end === i || size + encoded[end]!.length < BULK_JSON_CHARS))
      size += encoded[end++]!.length + 1;
    statements.push(db.run(insertSelect(table, written, `[${encoded.slice(i, end).join(",")}]`, options)));
    i = end;
  }
  return statements;
}

function insertSelect(table: SQLiteTable, written: [string, SQLiteColumn][], json: string, options: BulkOptions): SQL {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const names = written.map(([, c]) => quote(c.name));
  const values = written.map((_, i) => `json_extract(value, '$[${i}]')`);
  const workspace = written.findIndex(([, c]) => c.name === "workspace_id");
  if (options.stampVersion) {
    if (workspace < 0) throw new Error(`bulkInsert: stamping ${getTableName(table)} needs its workspace_id`);
    names.push(quote(options.stampVersion.name));
    values.push(`(SELECT "version" FROM "workspaces" WHERE "id" = json_extract(value, '$[${workspace}]'))`);
  }
  // A row's workspace is never rewritten by an upsert, and a key that collides with another
  // workspace's row updates nothing there (issue 34: ids unique only with high probability).
  const tenantGuard =
    workspace >= 0 ? ` WHERE ${quote(getTableName(table))}."workspace_id" = excluded."workspace_id"` : "";
  const conflict =
    options.onConflict === "nothing"
      ? "ON CONFLICT DO NOTHING"
      : `ON CONFLICT (${options.onConflict.target.map((c) => quote(c.name)).join(", ")}) DO UPDATE SET ${[
          ...options.onConflict.set
            .filter((c) => c.name !== "workspace_id")
            .map((c) => `${quote(c.name)} = excluded.${quote(c.name)}`),
          // Columns that add up (docs/decisions/0097): the stored value plus the new contribution.
          ...(options.onConflict.add ?? []).map(
            (c) => `${quote(c.name)} = ${quote(getTableName(table))}.${quote(c.name)} + excluded.${quote(c.name)}`,
          ),
        ].join(", ")}${tenantGuard}`;
  // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
  const literal = `'${json.replace(/'/g, "''")}'`;
  return sql.raw(
    `INSERT INTO ${quote(getTableName(table))} (${names.join(", ")}) SELECT ${values.join(", ")} FROM json_each(${literal}) WHERE true ${conflict}`,
  );
}

export interface BulkUpdateOptions {
  key: SQLiteColumn;
  scope: { column: SQLiteColumn; value: string };
  stampVersion?: SQLiteColumn;
  /** Only rows whose column is not already this value (so an unchanged row keeps its version). */
  unless?: { column: SQLiteColumn; value: string };
  /**
   * Only rows this SQL condition holds for, given how to read a written column's new value (a
   * job's status that must not go back: party/live-fleet/flush-tables.ts). Trusted SQL, never input.
   */
  guard?: (newValue: (column: SQLiteColumn) => string) => string;
}

/**
 * Updates existing rows, any number of them, in one statement per BULK_JSON_CHARS: `UPDATE ...
 * FROM json_each('[...]')` matched on `key` (and `scope`, a column every row must also match: the
 * workspace, so a flush can only ever touch its own). A row whose key is missing is not created
 * (a beacon whose id was rotated meanwhile stays gone). Values go through the columns' encoding.
 */
export function bulkUpdate<T extends SQLiteTable>(
  db: Pick<LiveWrites, "run">,
  table: T,
  rows: Record<string, unknown>[],
  options: BulkUpdateOptions,
) {
  return bulkUpdateSql(table, rows, options).map((text) => db.run(sql.raw(text)));
}

/**
 * bulkUpdate's statements as SQL text. Each row is looked up by its key, O(rows written) whatever
 * the table holds: the key's term is the only one an index may serve (a `+` before the scope's and
 * the `unless` column makes them plain filters), so SQLite reads json_each outside and the table
 * by its primary key inside. With the scope's index usable (`workspace_id`), it chose the other
 * order: every row of the workspace, the JSON searched for each (issue 51: 7.1 s per chunk of 500
 * job ETAs at 15,000 jobs). db/bulk-plan.worker.test.ts reads the plan.
 */
function bulkUpdateSql(table: SQLiteTable, rows: Record<string, unknown>[], options: BulkUpdateOptions) {
  const columns = Object.entries(getTableColumns(table) as Record<string, SQLiteColumn>);
  const fields = new Set(rows.flatMap((r) => Object.keys(r)));
  const written = columns.filter(
    ([field, column]) => fields.has(field) && column !== options.key && column !== options.stampVersion,
  );
  const keyField = columns.find(([, c]) => c === options.key)![0];
  const value = ([f, c]: [string, SQLiteColumn], r: Record<string, unknown>) =>
    r[f] === undefined || r[f] === null ? null : c.mapToDriverValue(r[f]);
  const encode = (r: Record<string, unknown>) => JSON.stringify([r[keyField], ...written.map((w) => value(w, r))]);
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const text = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const name = quote(getTableName(table));
  const sets = written.map(([, c], i) => `${quote(c.name)} = json_extract(j.value, '$[${i + 1}]')`);
  if (options.stampVersion)
    sets.push(
      `${quote(options.stampVersion.name)} = (SELECT "version" FROM "workspaces" WHERE "id" = ${text(options.scope.value)})`,
    );
  const newValue = (column: SQLiteColumn) =>
    `json_extract(j.value, '$[${written.findIndex(([, c]) => c === column) + 1}]')`;
  const scope = `+${name}.${quote(options.scope.column.name)} = ${text(options.scope.value)}`;
  const unless = options.unless
    ? ` AND +${name}.${quote(options.unless.column.name)} IS NOT ${text(options.unless.value)}`
    : "";
  const guard = options.guard ? ` AND (${options.guard(newValue)})` : "";
  const statements: string[] = [];
  const encoded = rows.map(encode);
  for (let i = 0; i < encoded.length;) {
    let size = 0;
    let end = i;
    while (end < encoded.length && (end === i || size + encoded[end]!.length < BULK_JSON_CHARS))
      size += encoded[end++]!.length + 1;
    statements.push(
      `UPDATE ${name} SET ${sets.join(", ")} FROM json_each(${text(`[${encoded.slice(i, end).join(",")}]`)}) AS j WHERE ${name}.${quote(options.key.name)} = json_extract(j.value, '$[0]') AND ${scope}${unless}${guard}`,
    );
    i = end;
  }
  return statements;
}
