import { and, asc, count, desc, eq, gte, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { positions } from "../../db/schema";
import type { StoredFix } from "./codec";

/**
 * D1's `positions` table, the history written before positions moved into the workspace's object
 * (docs/decisions/0023): no longer written, read as the oldest tier, deleted past retention.
 */
export interface LegacyPositions {
  /** One vehicle's fixes with device time in [from, to], oldest first. */
  read(vehicleId: string, from: number, to: number): Promise<StoredFix[]>;
  /** Its newest `limit` fixes with device time in [from, to], oldest first. */
  latest(vehicleId: string, from: number, to: number, limit: number): Promise<StoredFix[]>;
  /** How many of its fixes have device time in [from, to]. */
  count(vehicleId: string, from: number, to: number): Promise<number>;
  /** Whether the vehicle has any fix here at all (an indexed probe: once answered no, the store stops asking D1). */
  any(vehicleId: string): Promise<boolean>;
  /** Deletes up to `limit` of the workspace's fixes older than `cutoff`; answers how many. */
  deleteBefore(cutoff: number, limit: number): Promise<number>;
}

export function d1LegacyPositions(db: Db, workspaceId: string): LegacyPositions {
  // Served by the index (vehicle_id, recorded_at); the workspace is checked on every row.
  const inRange = (vehicleId: string, from: number, to: number) =>
    and(eq(positions.vehicleId, vehicleId), eq(positions.workspaceId, workspaceId), gte(positions.recordedAt, from), lte(positions.recordedAt, to));
  return {
    async read(vehicleId, from, to) {
      const rows = await db.select().from(positions).where(inRange(vehicleId, from, to)).orderBy(asc(positions.recordedAt)).all();
      return rows.map(toFix);
    },
    async latest(vehicleId, from, to, limit) {
      const rows = await db.select().from(positions).where(inRange(vehicleId, from, to)).orderBy(desc(positions.recordedAt)).limit(limit).all();
      return rows.reverse().map(toFix);
    },
    async count(vehicleId, from, to) {
      return (await db.select({ n: count() }).from(positions).where(inRange(vehicleId, from, to)).get())?.n ?? 0;
    },
    async any(vehicleId) {
      const row = await db.select({ one: sql<number>`1` }).from(positions).where(and(eq(positions.vehicleId, vehicleId), eq(positions.workspaceId, workspaceId))).limit(1).get();
      return row !== undefined;
    },
    async deleteBefore(cutoff, limit) {
      const oldest = db
        .select({ rowid: sql`rowid` })
        .from(positions)
        .where(and(eq(positions.workspaceId, workspaceId), lt(positions.recordedAt, cutoff)))
        .limit(limit);
      const result = await db.delete(positions).where(sql`rowid IN ${oldest}`).run();
      return result.meta.changes ?? 0;
    },
  };
}

function toFix({ workspaceId: _w, vehicleId: _v, ...fix }: typeof positions.$inferSelect): StoredFix {
  return fix;
}
