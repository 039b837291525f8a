import { and, count, eq, getTableColumns, inArray, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { is } from "drizzle-orm";
import type { Db } from "../../db/client";
import * as schema from "../../db/schema";
import { memberships, photoPurges, replicacheClientGroups, users, workspaces } from "../../db/schema";
import type { Env } from "../env";
import { endCredentials, forgetEndedShares } from "../team/credentials";
import { workspacePhotoPrefix } from "../photos/photo-store";
import { inLists, insertChunks } from "../../db/chunk";

/** What deleting an account does to the workspaces it owns. */
export interface DeletionPlan {
  /** Owned workspaces with other members and no other owner: deletion waits until one is named. */
  blocking: { id: string; name: string }[];
  /** Workspaces where the account is the only member: they go with it. */
  deleted: { id: string; name: string }[];
}

/**
 * Sorts the account's owned workspaces (ASVS V8.3.2: a user can delete their data, but not a team's
 * workspace out from under its other members).
 */
export async function planDeletion(db: Db, userId: string): Promise<DeletionPlan> {
  const owned = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner")))
    .all();
  const others: { workspaceId: string; role: string }[] = [];
  for (const part of inLists(owned.map((w) => w.id)))
    others.push(
      ...(await db
        .select({ workspaceId: memberships.workspaceId, role: memberships.role, n: count() })
        .from(memberships)
        .where(and(inArray(memberships.workspaceId, part), ne(memberships.userId, userId)))
        .groupBy(memberships.workspaceId, memberships.role)
        .all()),
    );
  const plan: DeletionPlan = { blocking: [], deleted: [] };
  for (const w of owned) {
    const rows = others.filter((o) => o.workspaceId === w.id);
    if (rows.length === 0) plan.deleted.push(w);
    else if (!rows.some((o) => o.role === "owner")) plan.blocking.push(w);
  }
  return plan;
}

/** Every table with a `workspace_id` column: a workspace's rows, whatever part of the product wrote them. */
const workspaceTables = Object.values(schema as Record<string, unknown>)
  .filter((value): value is SQLiteTable => is(value, SQLiteTable) && value !== workspaces)
  .flatMap((table) => {
    const column = getTableConfig(table).columns.find((c) => c.name === "workspace_id");
    return column ? [{ table, column: column as SQLiteColumn }] : [];
  });

/**
 * Deletes the account and its personal data in one batch (one transaction): the user row, and with
 * it by cascade its password, Google link, second factor, recovery codes, sessions, memberships and
 * invites it sent; the API tokens and share links it made are ended (they outlive it only as
 * history, naming no one); plus every row of the workspaces it was alone in. Workspaces it shared keep their
 * data (vehicles and history belong to the team), minus its membership.
 */
export async function deleteAccount(env: Env, db: Db, userId: string, soleWorkspaces: string[]): Promise<boolean> {
  // Its API tokens and share links name it as their creator and end with it (worker/team/credentials.ts).
  const statements: BatchItem<"sqlite">[] = [
    lastOwnerGuard(db, userId),
    ...endCredentials(db, { userId, workspaceId: null }),
  ];
  for (const part of inLists(soleWorkspaces)) {
    for (const { table, column } of workspaceTables) statements.push(db.delete(table).where(inArray(column, part)));
    statements.push(db.delete(workspaces).where(inArray(workspaces.id, part)));
    // Their photos' bytes in R2 go too, emptied by the cron (worker/photos/photo-collector.ts; issue 39).
    const purges = part.map((id) => ({ prefix: workspacePhotoPrefix(id) }));
    for (const rows of insertChunks(photoPurges, purges))
      statements.push(db.insert(photoPurges).values(rows).onConflictDoNothing());
  }
  // Its browsers' sync bookkeeping names it without a foreign key.
  statements.push(db.delete(replicacheClientGroups).where(eq(replicacheClientGroups.userId, userId)));
  statements.push(db.delete(users).where(eq(users.id, userId)));
  try {
    const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    await forgetEndedShares(env, results, 1);
    return true;
  } catch (error) {
    if (String(error).includes("UNIQUE constraint failed")) return false;
    throw error;
  }
}

/**
 * Aborts the deletion's batch (by re-inserting the user's own row: a UNIQUE failure) when, at
 * that moment, the account owns a workspace others use with no other owner: two co-owners
 * deleting at once are two transactions, and the second sees the first's membership gone.
 */
function lastOwnerGuard(db: Db, userId: string) {
  return db.insert(users).select(
    db
      .select(getTableColumns(users))
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          sql`exists (select 1 from ${memberships} m where m.user_id = ${userId} and m.role = 'owner'
            and exists (select 1 from ${memberships} o where o.workspace_id = m.workspace_id and o.user_id <> ${userId})
            and not exists (select 1 from ${memberships} o2 where o2.workspace_id = m.workspace_id and o2.role = 'owner' and o2.user_id <> ${userId}))`,
        ),
      ),
  );
}
