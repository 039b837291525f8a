import { eq, sql } from "drizzle-orm";
import type { Db } from "./client";
import { workspaces } from "./schema";

/**
 * Per-space versioning (docs/decisions/0003-sync.md). Every write in a workspace is one
 * `db.batch()` that starts with `bumpVersion` and stamps each row it changes with `versionOf`:
 * the subquery reads the version bumped earlier in the same transaction, so no read is needed
 * up front and concurrent writers cannot stamp the same version on different changes.
 *
 *   await db.batch([bumpVersion(db, ws), db.update(vehicles).set({ name, version: versionOf(ws) })...]);
 *
 * A write of one workspace goes through commitWorkspaceWrite (worker/workspace-object.ts), which
 * does exactly this and then announces it; a batch that commits several workspaces at once
 * (ingestion, the cron) calls announceWrites after it.
 */
export function bumpVersion(db: Db, workspaceId: string) {
  // Both from the row's old version (SQLite evaluates every SET from the row before the update).
  return db
    .update(workspaces)
    .set({ version: sql`${workspaces.version} + 1`, editVersion: sql`${workspaces.version} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

/**
 * The tables the workspace object's flush writes (party/live-fleet/flush-batch.ts, flush-tables.ts)
 * that a pull reads: the only ones an incremental pull reads when no other write came after its
 * cookie (worker/sync/changes.ts). A synced table the flush starts writing must be added here.
 */
export const LIVE_SYNCED_TABLES = ["vehicles", "telemetry", "vehicle_events", "alerts"] as const;

/**
 * `bumpVersion` for the object's flush alone: it writes only LIVE_SYNCED_TABLES (and tables no
 * pull reads), so it leaves `edit_version` where the last other write put it.
 */
export function bumpLiveVersion(db: Db, workspaceId: string) {
  return db
    .update(workspaces)
    .set({ version: sql`${workspaces.version} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

export function versionOf(workspaceId: string) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceId})`;
}
