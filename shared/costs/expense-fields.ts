import { z } from "zod";
import { cents, optionalText } from "../maintenance/field-schemas";
import { dayWithin } from "../maintenance/service";
import {
  choiceField,
  fieldTableKit,
  requiredNumberField,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * An expense's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0103):
 * what a person gives and the expense keeps as given. From this table (through
 * shared/fields/field-table.ts, the kit of jobs, work orders, parts and vendors) come the REST
 * body, patch and answer (shared/costs/expenses.ts, worker/api/cost-answers.ts,
 * worker/costs/expense-list.ts), the synced value (each under its short key), the mutators' and the
 * Worker's writes (worker/costs/expense-writes.ts) and the Add and Edit expense forms
 * (app/costs/expense-forms.tsx). A new field is an entry here, its column in db/schema.ts
 * `expenses` (same name) and a migration: docs/add-a-field.md. The vehicle (given once, never
 * changed, the expense's place) and the receipts (photos checked against the workspace's) are
 * written out beside the table.
 */

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

/** How far from today an expense's day may be: a vehicle's history back, a prepaid bill ahead (issue 51). */
export const EXPENSE_DAYS_BACK = 10 * 366;
export const EXPENSE_DAYS_AHEAD = 366;

/** The table. Order: the body's, the answer's, the synced value's and the form's. */
export const EXPENSE_FIELD_TABLE = {
  date: requiredTextField(dayWithin(EXPENSE_DAYS_BACK, EXPENSE_DAYS_AHEAD), {
    wire: "d",
    form: { id: "expense-date", label: "Date", type: "date", required: true },
    example: "2026-11-20",
    describe: "YYYY-MM-DD, the workspace's day",
  }),
  kind: choiceField(z.enum(expenseKinds, { errorMap: () => ({ message: `One of ${expenseKinds.join(", ")}` }) }), {
    wire: "k",
    labels: expenseKindLabels,
    fallback: "other",
    form: { id: "expense-kind", label: "Kind", type: "select" },
    example: "parking",
  }),
  costCents: requiredNumberField(cents("a cost"), {
    wire: "c",
    integer: true,
    form: { id: "expense-cost", label: "Amount ($)", type: "number", min: 0, step: "0.01", scale: 100 },
    example: 1250,
  }),
  note: textField(optionalText(500), {
    wire: "n",
    form: { id: "expense-note", label: "Note", maxLength: 500, placeholder: "e.g. Bridge toll, policy 2027" },
    example: "Bridge toll",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const expenseTable = fieldTableKit(EXPENSE_FIELD_TABLE);
type Table = typeof EXPENSE_FIELD_TABLE;
export type ExpenseTableKey = TableKey<Table>;

/** The table's fields as an expense keeps, answers and syncs them. */
export type ExpenseTableValues = TableValues<Table>;
/** As the synced value carries them (the day, kind and cost always; the note absent when empty). */
export type ExpenseTableWire = TableWire<Table>;
export type ExpenseTableInput = TableInput<Table>;
