import { z } from "zod";
import { photoIdsSchema } from "../maintenance/photos";
import { dayWithin, daySchema } from "../maintenance/service";
import { setIfPresent } from "../sync/wire";

/**
 * Expenses (issue 42, DESIGN.md "Fuel, costs and renewals"): what a vehicle costs beyond fuel and
 * service. One schema for the REST API, the sync mutators and the form; the compact synced value
 * and its store key, which the Expenses lists and the overview page read. Money is integer cents.
 */

const id = z.string().min(1).max(100);

export const expenseKinds = ["insurance", "registration", "tolls", "parking", "lease", "repair", "other"] as const;
export type ExpenseKind = (typeof expenseKinds)[number];
export const expenseKindLabels: Record<ExpenseKind, string> = {
  insurance: "Insurance",
  registration: "Registration",
  tolls: "Tolls",
  parking: "Parking",
  lease: "Lease",
  repair: "Repair",
  other: "Other",
};

const kind = z.enum(expenseKinds, {
  errorMap: () => ({ message: `One of ${expenseKinds.join(", ")}` }),
});
const costCents = z
  .number({ required_error: "Required", invalid_type_error: "Enter a cost in cents" })
  .int("Whole cents")
  .min(0, "0 or more")
  .max(100_000_000_00, "At most 10000000000");
const note = z.string().trim().max(500, "At most 500 characters");

/** How far from today an expense's day may be: a vehicle's history back, a prepaid bill ahead (issue 51). */
export const EXPENSE_DAYS_BACK = 10 * 366;
export const EXPENSE_DAYS_AHEAD = 366;

/** `POST /api/expenses`: `date` is the workspace's calendar day the money was spent. */
export const expenseBodySchema = z.object({
  vehicleId: id,
  date: dayWithin(EXPENSE_DAYS_BACK, EXPENSE_DAYS_AHEAD),
  kind,
  costCents,
  note: note.nullish(),
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

/** An expense as the REST API answers it. */
export interface Expense {
  id: string;
  vehicleId: string;
  /** YYYY-MM-DD, the workspace's day */
  date: string;
  kind: ExpenseKind;
  costCents: number;
  note: string | null;
  photoIds: string[];
  createdAt: string;
}

/** The fields an expense keeps (the D1 row's and the store's shape less their bookkeeping). */
export interface ExpenseFields {
  vehicleId: string;
  date: string;
  kind: ExpenseKind;
  costCents: number;
  note: string | null;
  photoIds: string[];
}

export const expenseFieldsOf = (input: ExpenseInput): ExpenseFields => ({
  vehicleId: input.vehicleId,
  date: input.date,
  kind: input.kind,
  costCents: input.costCents,
  note: input.note || null,
  photoIds: input.photoIds,
});

/** A patch applied to an expense: the server's write and the browser's optimistic copy alike. */
export function expenseAfterPatch<F extends ExpenseFields>(current: F, patch: ExpensePatch): F {
  return {
    ...current,
    date: patch.date ?? current.date,
    kind: patch.kind ?? current.kind,
    costCents: patch.costCents ?? current.costCents,
    photoIds: patch.photoIds ?? current.photoIds,
    note: patch.note === undefined ? current.note : patch.note || null,
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
/** Compact (ADR 0013): the kind as its index in expenseKinds, nulls left out. */
export type ExpenseWire = { v: string; d: string; k: number; c: number; n?: string; ph?: string[] };

export function encodeExpense(e: ExpenseFields): ExpenseWire {
  const w: ExpenseWire = { v: e.vehicleId, d: e.date, k: expenseKinds.indexOf(e.kind), c: e.costCents };
  setIfPresent(w, "n", e.note);
  if (e.photoIds.length) w.ph = e.photoIds;
  return w;
}

export const decodeExpense = (expenseId: string, w: ExpenseWire): SyncedExpense => ({
  id: expenseId,
  vehicleId: w.v,
  date: w.d,
  kind: expenseKinds[w.k] ?? "other",
  costCents: w.c,
  note: w.n ?? null,
  photoIds: w.ph ?? [],
});

// ------------------------------------------------------------------ the form

/** "Add expense": the amount in dollars as typed (sent as cents). */
export const expenseFormSchema = z.object({
  date: dayWithin(EXPENSE_DAYS_BACK, EXPENSE_DAYS_AHEAD),
  kind,
  cost: z
    .number({ required_error: "Required", invalid_type_error: "Enter an amount" })
    .min(0, "0 or more")
    .max(100_000_000, "At most 100000000"),
  note: note.optional(),
});

export const dollarsToCents = (dollars: number) => Math.round(dollars * 100);
