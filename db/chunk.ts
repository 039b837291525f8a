import { getTableColumns, type Table } from "drizzle-orm";

/**
 * D1 allows at most 100 bound parameters per statement, so a multi-row insert (or an `IN` list) is
 * split into statements of `Math.floor(100 / paramsPerRow)` rows (an insert's still go in one batch).
 */
export const D1_MAX_PARAMS = 100;

/**
 * Rows of `table` one multi-row insert may carry: Drizzle binds every column of each row (nulls,
 * defaults and the Worker's creation time too), so the table's column count is each row's share.
 * Counted from the table, so a column added later cannot push a chunk past the limit.
 */
export function insertChunks<T>(table: Table, rows: T[]): T[][] {
  return chunkRows(rows, Object.keys(getTableColumns(table)).length);
}

export function chunkRows<T>(rows: T[], paramsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / paramsPerRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/**
 * Values one `IN` list may hold: D1's 100 bound values less room for a statement's other few (a
 * workspace id, a flag, a time). Every `inArray(column, list)` of a list that callers or data
 * size goes through `inLists` (scripts/in-lists.test.ts finds one that does not).
 */
export const IN_LIST_MAX = 90;

/** `values` (deduplicated) cut into lists D1 accepts: `for (const part of inLists(ids)) ... inArray(column, part)`. */
export function inLists<T>(values: Iterable<T>): T[][] {
  return chunkRows([...new Set(values)], D1_MAX_PARAMS / IN_LIST_MAX);
}
