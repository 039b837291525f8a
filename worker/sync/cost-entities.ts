import { and, eq, gt, gte } from "drizzle-orm";
import { encodeExpense, expenseKey, firstSyncedExpenseDay } from "../../shared/costs/expenses";
import { encodeRenewal, renewalKey } from "../../shared/costs/renewals";
import type { Db } from "../../db/client";
import { expenses, renewals } from "../../db/schema";
import type { Add, Rows } from "./add-rows";

/**
 * Expenses and renewals in a pull (issue 42, docs/decisions/0049). Expenses are bounded as fill-ups
 * are (ADR 0045): a full answer carries the live ones dated in the last 90 days, an incremental one
 * every change since the cookie (tombstones included), whatever its date; older ones over REST.
 * Renewals are all carried: a vehicle has a handful, and renewing rewrites the row, not adds one.
 */
export function costChangeQueries(db: Db, workspaceId: string, since: number, live: boolean, now = Date.now()) {
  const expenseScope = and(eq(expenses.workspaceId, workspaceId), gt(expenses.version, since));
  const renewalScope = and(eq(renewals.workspaceId, workspaceId), gt(renewals.version, since));
  return [
    db
      .select()
      .from(expenses)
      .where(
        live
          ? and(expenseScope, eq(expenses.deleted, false), gte(expenses.date, firstSyncedExpenseDay(now)))
          : expenseScope,
      ),
    db
      .select()
      .from(renewals)
      .where(live ? and(renewalScope, eq(renewals.deleted, false)) : renewalScope),
  ] as const;
}

export function addCosts(
  changes: { expenseRows: Rows<typeof expenses>; renewalRows: Rows<typeof renewals> },
  add: Add,
) {
  add(changes.expenseRows, (r) => expenseKey(r.id), encodeExpense);
  add(changes.renewalRows, (r) => renewalKey(r.id), encodeRenewal);
}
