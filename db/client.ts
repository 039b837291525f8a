import { drizzle } from "drizzle-orm/d1";
import { metered } from "./d1-meter";
import * as schema from "./schema";

export type Db = ReturnType<typeof build>;

const build = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One Drizzle client per binding (per isolate): building one walks the whole schema's relations
 * (drizzle's extractTablesRelationalConfig), which a CPU profile of the local Worker under the
 * ingestion bench found to be 20% of all its time when every request and every call into a
 * workspace's object built its own. Keyed by what `metered` answers, so the development meter's
 * counting wrapper gets a client of its own while it is on.
 */
const clients = new WeakMap<D1Database, Db>();

export function database(d1: D1Database): Db {
  const binding = metered(d1);
  let db = clients.get(binding);
  if (!db) clients.set(binding, (db = build(binding)));
  return db;
}
