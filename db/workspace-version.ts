import { eq, inArray, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
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
 * does exactly this and then announces it; a write across several workspaces at once (the cron's
 * alert expiry) goes through commitWorkspacesWrite there, with `bumpVersions` and `versionOfRow`.
 */
export function bumpVersion(db: Db, workspaceId: string) {
  return db
    .update(workspaces)
    .set({ version: sql`${workspaces.version} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

/**
 * `bumpVersion` for the object's flush alone, which writes only LIVE_SYNCED_TABLES (and tables no
 * pull reads). It marks its version as a flush's (`flushed_version`) and records in `edit_version`
 * the last version that was not one: the current version if the bump before it was anything else
 * (an edit, a push, the cron, an older deployment's code), else the previous record. So whenever
 * `flushed_version = version`, `edit_version` is the last version of any other write, and no
 * other writer has to know about it (every SET reads the row as it was before the update).
 */
export function bumpLiveVersion(db: Db, workspaceId: string) {
  const version = workspaces.version;
  return db
    .update(workspaces)
    .set({
      version: sql`${version} + 1`,
      flushedVersion: sql`${version} + 1`,
      editVersion: sql`CASE WHEN ${workspaces.flushedVersion} = ${version} THEN ${workspaces.editVersion} ELSE ${version} END`,
    })
    .where(eq(workspaces.id, workspaceId));
}

export function versionOf(workspaceId: string) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceId})`;
}

/**
 * `bumpVersion` of several workspaces in one statement, for a write across them all at once
 * (commitWorkspacesWrite of worker/workspace-object.ts, which alone calls it).
 */
export function bumpVersions(db: Db, workspaceIds: string[]) {
  return (
    db
      .update(workspaces)
      .set({ version: sql`${workspaces.version} + 1` })
      // in-list: the caller's lists are inLists' (commitWorkspacesWrite).
      .where(inArray(workspaces.id, workspaceIds))
  );
}

/** `versionOf` the row's own workspace, named by its workspace column: a stamp for a write across several. */
export function versionOfRow(workspaceColumn: SQLiteColumn) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceColumn})`;
}
