import type { Table } from "drizzle-orm";

/**
 * How a pull answer takes an entity file's rows (worker/sync/pull.ts writes the patch): each row
 * becomes a put of its key and synced value, or a delete when it is a tombstone. The entity files
 * get this, and the rows of their own tables, from the pull, so none of them imports the pull or
 * its change reader back (no import circle, issue 40).
 */
export type Add = <R extends { deleted: boolean; createdVersion: number | null }>(
  rows: R[],
  key: (r: R) => string,
  value: (r: R) => unknown,
) => void;

/** The rows a pull read from one table. */
export type Rows<T extends Table> = T["$inferSelect"][];
