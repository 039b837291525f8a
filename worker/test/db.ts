import { eq, sql } from "drizzle-orm";
import type { drizzle } from "drizzle-orm/d1";
import { database as appDatabase, type Db } from "../../db/client";
import { workspaces } from "../../db/schema";
import type * as schema from "../../db/schema";

/**
 * Tests set up and inspect D1 directly, live tables included: the full Drizzle client, which the
 * Worker's code gets only inside a commit of the one writer (worker/workspace-object.ts,
 * docs/decisions/0081). Same client as `database` answers (one per binding), typed whole; it is
 * still a `Db` for the code under test.
 */
export type TestDb = ReturnType<typeof drizzle<typeof schema>> & Db;

export function database(d1: D1Database): TestDb {
  return appDatabase(d1) as unknown as TestDb;
}

/** A test's own version bump, for rows it writes by hand (the writer's is private to it). */
export function bumpVersion(db: Db, workspaceId: string) {
  return db
    .update(workspaces)
    .set({ version: sql`${workspaces.version} + 1` })
    .where(eq(workspaces.id, workspaceId));
}

/** The workspace's version as it stands in the batch: a stamp for rows a test writes by hand. */
export function versionOf(workspaceId: string) {
  return sql<number>`(SELECT "version" FROM "workspaces" WHERE "id" = ${workspaceId})`;
}
