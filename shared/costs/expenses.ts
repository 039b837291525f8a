import { z } from "zod";
import { photoIdsSchema } from "../maintenance/photos";
import { daySchema } from "../maintenance/service";
import {
  EXPENSE_DAYS_AHEAD,
  EXPENSE_DAYS_BACK,
  expenseKindLabels,
  expenseKinds,
  type ExpenseKind,
  type ExpenseTableValues,
  type ExpenseTableWire,
  expenseTable,
} from "./expense-fields";

/**
 * Expenses (issue 42, DESIGN.md "Fuel, costs and renewals"): what a vehicle costs beyond fuel and
 * service. One schema for the REST API, the sync mutators and the form; the compact synced value
 * and its store key, which the Expenses lists and the overview page read. Money is integer cents.
 * The plain fields (the day, kind, cost and note) are one table, shared/costs/expense-fields.ts
 * (docs/decisions/0103); the vehicle and the receipts are written out here.
 */

const id = z.string().min(1).max(100);

export { expenseKindLabels, expenseKinds, EXPENSE_DAYS_AHEAD, EXPENSE_DAYS_BACK, type ExpenseKind };

/**
 * `POST /api/expenses`: `date` is the workspace's calendar day the money was spent. The vehicle,
 * then the table's fields (shared/costs/expense-fields.ts), then the receipts.
 */
export const expenseBodySchema = z.object({
  vehicleId: id,
  ...expenseTable.inputs,
  photoIds: photoIdsSchema.default([]),
});
export type ExpenseBody = z.input<typeof expenseBodySchema>;
type ExpenseInput = z.output<typeof expenseBodySchema>;

/** `PATCH /api/expenses/{id}` (owners and admins): any field but the vehicle; null clears the note. */
export const expensePatchSchema = expenseBodySchema.omit({ vehicleId: true }).partial();
export type ExpensePatch = z.output<typeof expensePatchSchema>;

/** `GET /api/expenses?vehicleId=&from=&to=`: days, both ends included. */
export const expenseQuerySchema = z.object({
  vehicleId: id.optional(),
  from: daySchema.optional(),
  to: daySchema.optional(),
});

/** The sync mutators' arguments: the REST bodies with the id the browser chose. */
export const addExpenseArgs = expenseBodySchema.extend({ id });
export type AddExpenseArgs = z.input<typeof addExpenseArgs>;
export const updateExpenseArgs = expensePatchSchema.extend({ id });
export type UpdateExpenseArgs = z.input<typeof updateExpenseArgs>;
export const deleteExpenseArgs = z.object({ id });
export type DeleteExpenseArgs = z.input<typeof deleteExpenseArgs>;

/** The fields an expense keeps (the D1 row's and the store's shape less their bookkeeping): the vehicle, the table's, the receipts. */
export interface ExpenseFields extends ExpenseTableValues {
  vehicleId: string;
  photoIds: string[];
}

/** An expense as the REST API answers it (`date`: YYYY-MM-DD, the workspace's day). */
export interface Expense extends ExpenseFields {
  id: string;
  createdAt: string;
}

export const expenseFieldsOf = (input: ExpenseInput): ExpenseFields => ({
  vehicleId: input.vehicleId,
  ...expenseTable.given(input),
  photoIds: input.photoIds,
});

/** A patch applied to an expense: the server's write and the browser's optimistic copy alike. */
export function expenseAfterPatch<F extends ExpenseFields>(current: F, patch: ExpensePatch): F {
  return {
    ...current,
    ...expenseTable.patched(current, patch),
    photoIds: patch.photoIds ?? current.photoIds,
  };
}

// ------------------------------------------------------------------ the synced store (docs/decisions/0049)

/** Store keys `expense/{id}`: the Expenses lists and the overview page scan this prefix. */
export const EXPENSE_PREFIX = "expense/";
export const expenseKey = (expenseId: string) => `${EXPENSE_PREFIX}${expenseId}`;
/** A full sync carries expenses dated within this many days (older ones: REST, "Show older"). */
export const SYNCED_EXPENSE_DAYS = 90;
/** The first day (YYYY-MM-DD, UTC) whose expenses a full sync carries. */
export const firstSyncedExpenseDay = (now: number) =>
  new Date(now - SYNCED_EXPENSE_DAYS * 86_400_000).toISOString().slice(0, 10);

/** What a screen reads for `expense/{id}` (shared/sync/synced-value.ts decodes the wire form to this). */
export type SyncedExpense = ExpenseFields & { id: string };
/**
 * Compact (ADR 0013): the vehicle `v`, the table's fields under their keys (`d`, `k` the kind's
 * index in expenseKinds, `c`, `n` left out when empty), the receipts `ph` left out when none.
 */
export type ExpenseWire = { v: string } & ExpenseTableWire & { ph?: string[] };

export function encodeExpense(e: ExpenseFields): ExpenseWire {
  const w = { v: e.vehicleId } as ExpenseWire;
  expenseTable.encode(e, w);
  if (e.photoIds.length) w.ph = e.photoIds;
  return w;
}

export const decodeExpense = (expenseId: string, w: ExpenseWire): SyncedExpense => ({
  id: expenseId,
  vehicleId: w.v,
  ...expenseTable.decode(w),
  photoIds: w.ph ?? [],
});

// ------------------------------------------------------------------ the form

/** "Add expense" and "Edit": the table's inputs, checked one by one; the amount typed in dollars gives cents. */
export const expenseFormSchema = z.object(expenseTable.formChecks);
