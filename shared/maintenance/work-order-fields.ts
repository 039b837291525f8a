import { optionalText } from "./field-schemas";
import { daySchema } from "./service";
import {
  fieldTableKit,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A work order's plain fields, one entry each (issue 52 "A field is one edit", issue 55,
 * docs/decisions/0094): a value a planner or mechanic gives and the order keeps as given, with no
 * rule of its own. From this table (through shared/fields/field-table.ts, the kit jobs use too)
 * come the REST body, patch and answer (shared/maintenance/work-orders.ts,
 * worker/api/work-order-answers.ts, worker/maintenance/work-order-rows.ts), the synced value
 * (each under its short key, left out when empty), the mutators' and the Worker's writes, and the
 * New work order form's inputs (app/work-orders/new-work-order.tsx). A new field is an entry
 * here, its column in db/schema.ts `workOrders` (same name) and a migration: docs/add-a-field.md.
 * What carries a rule stays written out in shared/maintenance/work-orders.ts: the status (moved
 * by complete and reopen), the assignee and vendor (one or the other), the issues, schedules and
 * tasks (lists), the tax (part of the totals), the completion's readings, photos and signature.
 */

/** The table. Order: the form's, and the answer's (after the vendor). */
export const WORK_ORDER_FIELD_TABLE = {
  dueDate: textField(daySchema.nullish(), {
    wire: "dd",
    form: { id: "work-order-due-date", label: "Due date", type: "date" },
    example: "2031-05-20",
    describe: "YYYY-MM-DD",
  }),
  description: textField(optionalText(2000), {
    wire: "x",
    form: { id: "work-order-description", label: "What is to be done", maxLength: 2000 },
    example: "Replace the front brake pads",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const workOrderTable = fieldTableKit(WORK_ORDER_FIELD_TABLE);
type Table = typeof WORK_ORDER_FIELD_TABLE;
export type WorkOrderTableKey = TableKey<Table>;

/** The table's fields as an order keeps, answers and syncs them. */
export type WorkOrderTableValues = TableValues<Table>;
/** As the synced value carries them (absent: empty). */
export type WorkOrderTableWire = TableWire<Table>;
export type WorkOrderTableInput = TableInput<Table>;
