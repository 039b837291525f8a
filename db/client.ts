import { drizzle } from "drizzle-orm/d1";
import { metered } from "./d1-meter";
import * as schema from "./schema";

export type Db = ReturnType<typeof database>;

export function database(d1: D1Database) {
  return drizzle(metered(d1), { schema });
}
