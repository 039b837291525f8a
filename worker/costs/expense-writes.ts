import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import {
  expenseAfterPatch,
  expenseFieldsOf,
  type ExpensePatch,
  type expenseBodySchema,
} from "../../shared/costs/expenses";
import { expenseTable } from "../../shared/costs/expense-fields";
import type { Db } from "../../db/client";
import { expenses } from "../../db/schema";
import { notFound } from "../lib/errors";
import { fuelVehicle } from "../fuel/fuel-writes";
import { foreignPhotoIds } from "../photos/photo-store";

/**
 * Adding, editing and deleting an expense (issue 42, docs/decisions/0049): the checks and the
 * writes, one copy for the REST routes (worker/api/expenses.ts) and the sync mutators
 * (worker/sync/expense-mutators.ts), as fuel-writes.ts is for fill-ups. Everything is checked
 * first (another workspace's vehicle, expense or photo: a 404; a bad field: a 400 naming it by its
 * schema), then the statements for the caller's one batch are returned, stamped with its version.
 */
type Writes = (stamp: SQL<number>) => BatchItem<"sqlite">[];
export type ExpenseRow = typeof expenses.$inferSelect;

export async function refuseForeignPhotos(db: Db, workspaceId: string, photoIds: readonly string[]) {
  if ((await foreignPhotoIds(db, workspaceId, photoIds)).length) throw notFound("No such photo in this workspace");
}

/** Whether an expense has this id already, in any workspace (a browser's id replayed, or taken). */
export async function expenseIdTaken(db: Db, expenseId: string) {
  return (await db.select({ id: expenses.id }).from(expenses).where(eq(expenses.id, expenseId)).get()) !== undefined;
}

export async function expenseWrites(
  db: Db,
  workspaceId: string,
  input: z.output<typeof expenseBodySchema>,
  { id, userId, now }: { id: string; userId: string; now: number },
): Promise<{ row: ExpenseRow; writes: Writes }> {
  await fuelVehicle(db, workspaceId, input.vehicleId);
  await refuseForeignPhotos(db, workspaceId, input.photoIds);
  const row: ExpenseRow = {
    id,
    workspaceId,
    ...expenseFieldsOf(input),
    createdByUserId: userId,
    version: 0,
    deleted: false,
    createdVersion: null,
    createdAt: now,
  };
  return { row, writes: (stamp) => [db.insert(expenses).values({ ...row, version: stamp })] };
}

const scoped = (workspaceId: string, expenseId: string) =>
  and(eq(expenses.id, expenseId), eq(expenses.workspaceId, workspaceId));

async function liveExpense(db: Db, workspaceId: string, expenseId: string): Promise<ExpenseRow> {
  const row = await db
    .select()
    .from(expenses)
    .where(and(scoped(workspaceId, expenseId), eq(expenses.deleted, false)))
    .get();
  if (!row) throw notFound("No such expense in this workspace");
  return row;
}

/** An expense corrected (owners and admins): only the fields a patch names change; the vehicle never does. */
export async function expenseUpdateWrites(
  db: Db,
  workspaceId: string,
  expenseId: string,
  patch: ExpensePatch,
): Promise<{ row: ExpenseRow; writes: Writes }> {
  const current = await liveExpense(db, workspaceId, expenseId);
  await refuseForeignPhotos(db, workspaceId, patch.photoIds ?? []);
  const after = expenseAfterPatch(current, patch);
  // the table's fields the patch names, and the receipts when given
  const set: Partial<ExpenseRow> = expenseTable.named(patch);
  if (patch.photoIds !== undefined) set.photoIds = patch.photoIds;
  return {
    row: after,
    writes: (stamp) => [
      db
        .update(expenses)
        .set({ ...set, version: stamp })
        .where(scoped(workspaceId, expenseId)),
    ],
  };
}

/** An expense deleted (owners and admins): a tombstone, so the pull tells every device to drop it. */
export async function expenseDeleteWrites(db: Db, workspaceId: string, expenseId: string): Promise<Writes> {
  await liveExpense(db, workspaceId, expenseId);
  return (stamp) => [db.update(expenses).set({ deleted: true, version: stamp }).where(scoped(workspaceId, expenseId))];
}
