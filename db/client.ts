import { drizzle } from "drizzle-orm/d1";
import type { SQLiteDeleteBase, SQLiteInsertBuilder, SQLiteTable, SQLiteUpdateBuilder } from "drizzle-orm/sqlite-core";
import type { WithSubquery } from "drizzle-orm";
import { metered } from "./d1-meter";
import type { LiveTable } from "./live-tables";
import { settling } from "./live-reads";
import * as schema from "./schema";

/** The whole of Drizzle's client: only the one writer holds it (worker/workspace-object.ts casts `Db` back to it). */
type FullDb = ReturnType<typeof build>;

/** A table `Db` may write: any but the live ones (db/live-tables.ts), which resolve to `never`. */
export type NotLive<T extends SQLiteTable> = T extends LiveTable ? never : T;

/** Drizzle's builders for writes, of any table but the live ones. */
interface NotLiveWrites {
  insert<T extends SQLiteTable>(into: NotLive<T>): SQLiteInsertBuilder<T, "async", D1Result>;
  update<T extends SQLiteTable>(table: NotLive<T>): SQLiteUpdateBuilder<T, "async", D1Result>;
  delete<T extends SQLiteTable>(from: NotLive<T>): SQLiteDeleteBase<T, "async", D1Result>;
}

/**
 * The database handle every module gets (issue 52, docs/decisions/0081): Drizzle's client through
 * which the live tables cannot be written. `insert`, `update` and `delete` of a live table are
 * type errors (the table's parameter resolves to `never`), and the ways around the builders are
 * not there: no `run` (raw SQL that writes), no `transaction` (its handle writes anything), no
 * `$client` (the raw binding's `prepare`), and `with(...)` builds reads only. Raw reads (`all`,
 * `get`, `values`) stay, settled like every other read (db/live-reads.ts). The live tables are
 * written by the one writer alone: worker/workspace-object.ts hands the builders that can (`LiveWrites`)
 * to the callbacks of its commit functions, which bump the version and announce in the same call.
 */
export type Db = Omit<FullDb, "insert" | "update" | "delete" | "run" | "transaction" | "$client" | "with"> &
  NotLiveWrites & { with(...queries: WithSubquery[]): Pick<ReturnType<FullDb["with"]>, "select" | "selectDistinct"> };

/**
 * The builders the one writer hands its callbacks (worker/workspace-object.ts): writes of any
 * table, live ones included, and raw SQL (`run`, for bulk writes). A value of this type exists
 * only inside a commit of the writer, which puts what it builds in one batch with the version's
 * bump and announces it.
 */
export type LiveWrites = Pick<FullDb, "insert" | "update" | "delete" | "run">;

const build = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One Drizzle client per binding (per isolate): building one walks the whole schema's relations
 * (drizzle's extractTablesRelationalConfig), which a CPU profile of the local Worker under the
 * ingestion bench found to be 20% of all its time when every request and every call into a
 * workspace's object built its own. Keyed by what `metered` answers, so the development meter's
 * counting wrapper gets a client of its own while it is on. Every client reads the live tables
 * through the settling reader (db/live-reads.ts).
 */
const clients = new WeakMap<D1Database, FullDb>();

export function database(d1: D1Database): Db {
  const binding = settling(metered(d1));
  let db = clients.get(binding);
  if (!db) clients.set(binding, (db = build(binding)));
  return db;
}
