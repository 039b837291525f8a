import { and, eq, gt, lt, lte, sql } from "drizzle-orm";
import { commitTombstoneCollection, type WriteContext } from "../workspace-object";
import { alerts, jobs, syncCheckpoints, telemetry, vehicleEvents, vehicles, workspaces } from "../../db/schema";

/**
 * Tombstones (soft-deleted synced rows) are kept this long after their deletion, then collected.
 * A client whose cookie is older gets a full reset instead of an incremental pull
 * (docs/decisions/0003-sync.md). Longer than Replicache's 7-day client GC, so an open or recently
 * used store always diffs.
 */
export const TOMBSTONE_HORIZON_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a workspace's version is written down: the horizon's precision. */
export const CHECKPOINT_EVERY_MS = 60 * 60 * 1000;

/**
 * Run by the scheduled job. Versions carry no time, so each run first writes down, for every
 * workspace that changed since its last checkpoint an hour or more ago, its current version with
 * the time. The newest checkpoint older than the horizon then bounds the tombstones that are old
 * enough: they are deleted, and the workspace's `tombstone_floor` rises to that version in the
 * same batch, so a pull sees either the tombstones or the floor that sends its client a reset.
 * A job's tombstone takes its customer links and queued pushes with it (their foreign keys cascade).
 * Inbox alerts expired after 90 days (worker/fleet/alert-retention.ts) are collected too: the rows
 * the retention exists to bound. Other synced tables' tombstones (places, rules, issues, costs…)
 * are only what people delete by hand, and stay. The deletes are live tables' writes: each
 * workspace's go through the one writer (commitTombstoneCollection), which announces them.
 * Returns the workspaces whose tombstones were collected.
 */
export async function collectTombstones(w: Pick<WriteContext, "env" | "db">, now = Date.now()): Promise<string[]> {
  const db = w.db;
  // Drizzle's insert-select names the table's columns in order: workspace_id, version, recorded_at.
  await db
    .insert(syncCheckpoints)
    .select(
      sql`SELECT w.id, w.version, ${now} FROM ${workspaces} w
    WHERE w.version > coalesce((SELECT max(c.version) FROM ${syncCheckpoints} c WHERE c.workspace_id = w.id), -1)
      AND NOT EXISTS (SELECT 1 FROM ${syncCheckpoints} c WHERE c.workspace_id = w.id AND c.recorded_at > ${now - CHECKPOINT_EVERY_MS})`,
    )
    .onConflictDoNothing();

  const cutoff = now - TOMBSTONE_HORIZON_MS;
  const due = await db
    .select({
      workspaceId: syncCheckpoints.workspaceId,
      horizon: sql<number>`max(${syncCheckpoints.version})`,
      recordedAt: sql<number>`max(${syncCheckpoints.recordedAt})`,
      floor: workspaces.tombstoneFloor,
    })
    .from(syncCheckpoints)
    .innerJoin(workspaces, eq(workspaces.id, syncCheckpoints.workspaceId))
    .where(lte(syncCheckpoints.recordedAt, cutoff))
    .groupBy(syncCheckpoints.workspaceId)
    .having(({ horizon, floor }) => gt(horizon, floor));

  for (const { workspaceId, horizon, recordedAt } of due) {
    const old = <T extends typeof vehicles | typeof telemetry | typeof vehicleEvents | typeof jobs | typeof alerts>(
      t: T,
    ) => and(eq(t.workspaceId, workspaceId), lte(t.version, horizon), eq(t.deleted, true));
    await commitTombstoneCollection(w, workspaceId, (live) => [
      live.delete(vehicleEvents).where(old(vehicleEvents)),
      live.delete(alerts).where(old(alerts)),
      live.delete(jobs).where(old(jobs)),
      live.delete(telemetry).where(old(telemetry)),
      live.delete(vehicles).where(old(vehicles)),
      db
        .update(workspaces)
        .set({ tombstoneFloor: horizon })
        .where(and(eq(workspaces.id, workspaceId), lt(workspaces.tombstoneFloor, horizon))),
      // Older checkpoints will never be the horizon again.
      db
        .delete(syncCheckpoints)
        .where(and(eq(syncCheckpoints.workspaceId, workspaceId), lt(syncCheckpoints.recordedAt, recordedAt))),
    ]);
  }
  return due.map((d) => d.workspaceId);
}
