import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Db } from "./client";
import { alertRules, apiTokens, places } from "./schema";
import type { AlertRuleConfig } from "../shared/alerts/alert-rules";
import type { PlaceGeometry } from "../shared/places/places";
import { type PlaceTableValues, placeTable } from "../shared/places/place-fields";

/**
 * Inserts that carry a per-workspace cap (issue 34, finding 8) inside the write itself:
 * `INSERT ... SELECT ... WHERE (live count) < cap` is one statement, and D1 runs a batch as one
 * transaction, so two creations at once at cap - 1 cannot both pass (a check before the insert
 * let each see room for one). At the cap the statement inserts nothing; the caller then finds
 * its row missing and answers 409 `limit_reached` (a push counts the mutation as processed).
 */
const underCap = (table: typeof places | typeof alertRules, workspaceId: string, cap: number) =>
  sql`(SELECT count(*) FROM ${table} WHERE ${table.workspaceId} = ${workspaceId} AND ${table.deleted} = 0) < ${cap}`;

export type NewPlace = PlaceTableValues & {
  id: string;
  workspaceId: string;
  geometry: PlaceGeometry;
  version: SQL<number>;
};

// Drizzle's insert-select with SQL lists every column in the table's order (id, workspace_id,
// version, deleted, created_version, ..., created_at): a NULL created_version lets the trigger of
// migrations/0007 set it. (db.run(sql) with parameters cannot be batched on D1 in drizzle 0.45.)
// created_at is the Worker's clock, as for every row Drizzle inserts (docs/decisions/0102), not D1's.

/** Each column of `places` as the capped insert selects it: a column with no value here is a type error. */
function placeSelectList(row: NewPlace) {
  const values: Record<keyof typeof places.$inferSelect, unknown> = {
    id: row.id,
    workspaceId: row.workspaceId,
    version: row.version,
    deleted: sql`0`,
    createdVersion: sql`NULL`,
    // the place table's fields (shared/places/place-fields.ts), each under its column's name
    ...placeTable.valuesOf(row),
    geometry: JSON.stringify(row.geometry),
    createdAt: Date.now(),
  };
  const columns = Object.keys(getTableColumns(places)) as (keyof typeof values)[];
  return sql.join(
    columns.map((column) => sql`${values[column]}`),
    sql`, `,
  );
}

export function insertPlaceUnderCap(db: Db, row: NewPlace, cap: number) {
  return db.insert(places).select(sql`SELECT ${placeSelectList(row)} WHERE ${underCap(places, row.workspaceId, cap)}`);
}

export interface NewAlertRule {
  id: string;
  workspaceId: string;
  config: AlertRuleConfig;
  version: SQL<number>;
}

export function insertAlertRuleUnderCap(db: Db, row: NewAlertRule, cap: number) {
  return db.insert(alertRules)
    .select(sql`SELECT ${row.id}, ${row.workspaceId}, ${row.version}, 0, NULL, ${JSON.stringify(row.config)}, ${Date.now()}
    WHERE ${underCap(alertRules, row.workspaceId, cap)}`);
}

export interface NewApiToken {
  id: string;
  workspaceId: string;
  name: string;
  scope: "read" | "write";
  tokenHash: string;
  createdBy: string;
  createdAt: number;
}

/** An API token, unless the workspace already has `cap` live (unrevoked) ones (issue 39, finding 7). */
export function insertApiTokenUnderCap(db: Db, row: NewApiToken, cap: number) {
  return db
    .insert(apiTokens)
    .select(
      sql`SELECT ${row.id}, ${row.workspaceId}, ${row.name}, ${row.scope}, ${row.tokenHash}, ${row.createdBy}, ${row.createdAt}, NULL, NULL
    WHERE (SELECT count(*) FROM ${apiTokens} WHERE ${apiTokens.workspaceId} = ${row.workspaceId} AND ${apiTokens.revokedAt} IS NULL) < ${cap}`,
    )
    .returning({ id: apiTokens.id });
}
