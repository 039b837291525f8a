import type { WriteTransaction } from "replicache";
import {
  addExpenseArgs,
  decodeExpense,
  deleteExpenseArgs,
  encodeExpense,
  expenseAfterPatch,
  expenseFieldsOf,
  expenseKey,
  updateExpenseArgs,
  type AddExpenseArgs,
  type DeleteExpenseArgs,
  type ExpenseWire,
  type UpdateExpenseArgs,
} from "./expenses";

/**
 * "Add expense" (members) and correcting or deleting one (owners and admins) in the browser:
 * optimistic, offline too, applied by the Worker (worker/sync/expense-mutators.ts) through the
 * REST routes' own checks and writes (worker/costs/expense-writes.ts). The browser chooses the id.
 */
export const expenseMutators = {
  async addExpense(tx: WriteTransaction, input: AddExpenseArgs) {
    const { id, ...expense } = addExpenseArgs.parse(input);
    if (await tx.has(expenseKey(id))) return;
    await tx.set(expenseKey(id), encodeExpense(expenseFieldsOf(expense)));
  },

  async updateExpense(tx: WriteTransaction, input: UpdateExpenseArgs) {
    const { id, ...patch } = updateExpenseArgs.parse(input);
    const wire = (await tx.get(expenseKey(id))) as ExpenseWire | undefined;
    if (!wire) return;
    await tx.set(expenseKey(id), encodeExpense(expenseAfterPatch(decodeExpense(id, wire), patch)));
  },

  async deleteExpense(tx: WriteTransaction, input: DeleteExpenseArgs) {
    await tx.del(expenseKey(deleteExpenseArgs.parse(input).id));
  },
};
