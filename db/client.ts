import { drizzle } from "drizzle-orm/d1";
import { metered } from "./d1-meter";
import { settling } from "./live-reads";
import * as schema from "./schema";

export type Db = ReturnType<typeof build>;

const build = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One Drizzle client per binding (per isolate): building one walks the whole schema's relations
 * (drizzle's extractTablesRelationalConfig), which a CPU profile of the local Worker under the
 * ingestion bench found to be 20% of all its time when every request and every call into a
 * workspace's object built its own. Keyed by what `metered` answers, so the development meter's
 * counting wrapper gets a client of its own while it is on. Every client reads the live tables
 * through the settling reader (db/live-reads.ts).
 */
const clients = new WeakMap<D1Database, Db>();

export function database(d1: D1Database): Db {
  const binding = settling(metered(d1));
  let db = clients.get(binding);
  if (!db) clients.set(binding, (db = build(binding)));
  return db;
}
