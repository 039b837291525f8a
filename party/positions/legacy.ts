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
  return new D1LegacyPositions(db, workspaceId);
}

class D1LegacyPositions implements LegacyPositions {
  constructor(
    private readonly db: Db,
    private readonly workspaceId: string,
  ) {}

  /** Served by the index (vehicle_id, recorded_at); the workspace is checked on every row. */
  private inRange(vehicleId: string, from: number, to: number) {
    return and(
      eq(positions.vehicleId, vehicleId),
      eq(positions.workspaceId, this.workspaceId),
      gte(positions.recordedAt, from),
      lte(positions.recordedAt, to),
    );
  }

  async read(vehicleId: string, from: number, to: number) {
    const rows = await this.db
      .select()
      .from(positions)
      .where(this.inRange(vehicleId, from, to))
      .orderBy(asc(positions.recordedAt))
      .all();
    return rows.map(toFix);
  }

  async latest(vehicleId: string, from: number, to: number, limit: number) {
    const rows = await this.db
      .select()
      .from(positions)
      .where(this.inRange(vehicleId, from, to))
      .orderBy(desc(positions.recordedAt))
      .limit(limit)
      .all();
    return rows.reverse().map(toFix);
  }

  async count(vehicleId: string, from: number, to: number) {
    return (
      (
        await this.db
          .select({ n: count() })
          .from(positions)
          .where(this.inRange(vehicleId, from, to))
          .get()
      )?.n ?? 0
    );
  }

  async any(vehicleId: string) {
    const mine = and(eq(positions.vehicleId, vehicleId), eq(positions.workspaceId, this.workspaceId));
    return (
      (await this.db
        .select({ one: sql<number>`1` })
        .from(positions)
        .where(mine)
        .limit(1)
        .get()) !== undefined
    );
  }

  async deleteBefore(cutoff: number, limit: number) {
    const oldest = this.db
      .select({ rowid: sql`rowid` })
      .from(positions)
      .where(and(eq(positions.workspaceId, this.workspaceId), lt(positions.recordedAt, cutoff)))
      .limit(limit);
    const result = await this.db
      .delete(positions)
      .where(sql`rowid IN ${oldest}`)
      .run();
    return result.meta.changes ?? 0;
  }
}

function toFix({ workspaceId: _w, vehicleId: _v, ...fix }: typeof positions.$inferSelect): StoredFix {
  return fix;
}
