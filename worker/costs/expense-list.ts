import { and, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import type { Expense } from "../../shared/costs/expenses";
import { expenseTable } from "../../shared/costs/expense-fields";
import type { Db } from "../../db/client";
import { expenses } from "../../db/schema";
import type { ExpenseRow } from "./expense-writes";

/** Expenses answered per request (older ones: a narrower range). */
export const EXPENSES_LIMIT = 1000;

/** `GET /api/expenses`: the live expenses of a range of days (both ends included), newest first. */
export async function liveExpenses(
  db: Db,
  workspaceId: string,
  { vehicleId, from, to }: { vehicleId?: string; from?: string; to?: string },
): Promise<Expense[]> {
  const where: SQL[] = [eq(expenses.workspaceId, workspaceId), eq(expenses.deleted, false)];
  if (vehicleId) where.push(eq(expenses.vehicleId, vehicleId));
  if (from !== undefined) where.push(gte(expenses.date, from));
  if (to !== undefined) where.push(lte(expenses.date, to));
  const rows = await db
    .select()
    .from(expenses)
    .where(and(...where))
    .orderBy(desc(expenses.date), desc(expenses.createdAt))
    .limit(EXPENSES_LIMIT)
    .all();
  return rows.map(toExpense);
}

export const toExpense = (r: ExpenseRow): Expense => ({
  id: r.id,
  vehicleId: r.vehicleId,
  ...expenseTable.valuesOf(r),
  photoIds: r.photoIds,
  createdAt: new Date(r.createdAt).toISOString(),
});
