import { eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { inLists } from "./chunk";
import type { Db, LiveWrites } from "./client";
import { workspaces } from "./schema";

/**
 * The one writer (issue 52, docs/decisions/0081): the only module that bumps a workspace's version,
 * stamps rows with it, or builds a write of a live table (db/live-tables.ts). Every commit it
 * exports takes the announcement of what it committed, and makes it once the commit succeeded: the
 * Worker's commits announce to the workspace's object through worker/workspace-object.ts
 * (commitWorkspaceWrite and its siblings, which every route, the push and the cron use), the
 * object's own (its flush, beacon watch, stop addresses) through its own pacer. Nothing here is
 * exported that commits without one, and `Db` (db/client.ts) cannot write a live table.
 */

/**
 * A commit's writes, built inside the commit: `stamp` is the workspace's new version (read back
 * inside the transaction), `live` the builders that can write the live tables, which `Db` cannot.
 * Neither exists outside a commit of this module.
 */
export type Writes = (stamp: SQL<number>, live: LiveWrites) => BatchItem<"sqlite">[];

/** Tells whoever must hear of a committed write: the workspace's object, or, in the object, its pages. */
export type Announce = () => Promise<void>;

/** The full client behind every `Db` (db/client.ts): only this module sees it. */
const liveWrites = (db: Db) => db as unknown as LiveWrites;

export interface CommitOptions {
  announce: Announce;
  /** Statements before the bump that abort the batch when they fail (the route plan's "unchanged" check). */
  guards?: (live: LiveWrites) => BatchItem<"sqlite">[];
  /**
   * `live`: only live tables change (the object's flush, beacon watch and stop addresses), so the
   * bump is a flush's and an incremental pull may read the live tables alone (bumpLiveVersion).
   */
  bump?: "full" | "live";
}

/**
 * One write of a workspace as one D1 transaction: `guards` first (a statement that fails aborts
 * the batch), then the version's bump, then `writes`, stamped with the new version, so concurrent
 * writers never share one; then the announcement. Answers the batch's results (the guards', the
 * bump's, then the writes').
 */
export async function commitWrite(
  db: Db,
  workspaceId: string,
  writes: Writes,
  options: CommitOptions,
): Promise<unknown[]> {
  const bump = options.bump === "live" ? bumpLiveVersion : bumpVersion;
  const results = await versionedBatch(db, workspaceId, writes, options.guards?.(liveWrites(db)), bump);
  await options.announce();
  return results;
}

/** The one place a workspace's version goes up (docs/decisions/0003-sync.md); private, so never without an announcement. */
function versionedBatch(
  db: Db,
  workspaceId: string,
  writes: Writes,
  guards: BatchItem<"sqlite">[] = [],
  bump: (db: Db, workspaceId: string) => BatchItem<"sqlite"> = bumpVersion,
): Promise<unknown[]> {
  const items = [...guards, bump(db, workspaceId), ...writes(versionOf(workspaceId), liveWrites(db))];
  return db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/** What a run of commitWrites commits with: the stamp and builders of `Writes`, for statements built before their commit. */
export interface WorkspaceWriter {
  readonly stamp: SQL<number>;
  readonly live: LiveWrites;
  /** One versioned transaction (guards, bump, writes), as commitWrite commits it; announced when the run ends. */
  commit(writes: BatchItem<"sqlite">[], guards?: BatchItem<"sqlite">[]): Promise<unknown[]>;
  /**
   * One transaction with no bump, for rows stamped with the current version that no other client
   * must pull (the push's acknowledgement of mutations that wrote nothing, docs/decisions/0035).
   */
  acknowledge(writes: BatchItem<"sqlite">[]): Promise<unknown[]>;
}

/**
 * Several commits of one workspace announced once, when `run` ends (the push: one transaction per
 * mutation, its reads between them, one announcement per request). `announce` hears what `run`
 * answered and whether anything committed; it is called after a run that committed something even
 * when the run then throws (with `result` undefined), since what committed stays committed.
 */
export async function commitWrites<T>(
  db: Db,
  workspaceId: string,
  run: (writer: WorkspaceWriter) => Promise<T>,
  announce: (result: T | undefined, committed: boolean) => Promise<void>,
): Promise<T> {
  let committed = false;
  const writer: WorkspaceWriter = {
    stamp: versionOf(workspaceId),
    live: liveWrites(db),
    commit: async (writes, guards) => {
      const results = await versionedBatch(db, workspaceId, () => writes, guards);
      committed = true;
      return results;
    },
    acknowledge: async (writes) => {
      const [first, ...rest] = writes;
      if (!first) return [];
      const results = await db.batch([first, ...rest]);
      committed = true;
      return results;
    },
  };
  let result: T;
  try {
    result = await run(writer);
  } catch (error) {
    if (committed) await announce(undefined, true);
    throw error;
  }
  await announce(result, committed);
  return result;
}

/**
 * One write across many workspaces at once (the cron's expiry of old Inbox alerts,
 * docs/decisions/0069): per list of them (cut to D1's bound-value limit) their versions go up,
 * then `writes(part, stampOf, live)` stamp each row with its own workspace's new version
 * (`stampOf(the row's workspace column)`); every list in one D1 transaction, then `announce` of
 * every workspace written.
 */
export async function commitAcross(
  db: Db,
  workspaceIds: Iterable<string>,
  writes: (
    part: string[],
    stampOf: (workspaceColumn: SQLiteColumn) => SQL<number>,
    live: LiveWrites,
  ) => BatchItem<"sqlite">[],
  announce: (workspaceIds: string[]) => Promise<void>,
): Promise<void> {
  const parts = inLists(workspaceIds);
  const live = liveWrites(db);
  const [first, ...rest] = parts.flatMap((part) => [bumpVersions(db, part), ...writes(part, versionOfRow, live)]);
  if (!first) return;
  await db.batch([first, ...rest]);
  await announce(parts.flat());
}

/**
 * A write with no bump, of rows no pull from a cookie above the workspace's `tombstone_floor` can
 * see: the collection of old tombstones (worker/sync/tombstones.ts), with the floor that sends
 * older cookies a reset, in one transaction; then its announcement.
 */
export async function commitUnversioned(
  db: Db,
  writes: (live: LiveWrites) => BatchItem<"sqlite">[],
  announce: Announce,
): Promise<void> {
  const [first, ...rest] = writes(liveWrites(db));
  if (!first) return;
  await db.batch([first, ...rest]);
  await announce();
}

// ---------------------------------------------------------------- versions (docs/decisions/0003-sync.md), private

/**
 * Per-space versioning: every write in a workspace is one `db.batch()` that starts with a bump and
 * stamps each row it changes with `versionOf`: the subquery reads the version bumped earlier in the
 * same transaction, so no read is needed up front and concurrent writers cannot stamp the same
 * version on different changes.
 */
function bumpVersion(db: Db, workspaceId: string) {
  return db
    .update(workspaces)
    .set({ version: sql`${workspaces.version} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

/**
 * `bumpVersion` for writes of live tables alone (`bump: "live"`). It marks its version as a
 * flush's (`flushed_version`) and records in `edit_version` the last version that was not one: the
 * current version if the bump before it was anything else (an edit, a push, the cron, an older
 * deployment's code), else the previous record. So whenever `flushed_version = version`,
 * `edit_version` is the last version of any other write, and no other writer has to know about it
 * (every SET reads the row as it was before the update).
 */
function bumpLiveVersion(db: Db, workspaceId: string) {
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

function versionOf(workspaceId: string) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceId})`;
}

/** `bumpVersion` of several workspaces in one statement (commitAcross). */
function bumpVersions(db: Db, workspaceIds: string[]) {
  return (
    db
      .update(workspaces)
      .set({ version: sql`${workspaces.version} + 1` })
      // in-list: the caller's lists are inLists' (commitAcross).
      .where(inArray(workspaces.id, workspaceIds))
  );
}

/** `versionOf` the row's own workspace, named by its workspace column: a stamp for a write across several. */
function versionOfRow(workspaceColumn: SQLiteColumn) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceColumn})`;
}
