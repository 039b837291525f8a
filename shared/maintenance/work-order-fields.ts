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

const kit = fieldTableKit(WORK_ORDER_FIELD_TABLE);
type Table = typeof WORK_ORDER_FIELD_TABLE;
export type WorkOrderTableKey = TableKey<Table>;
export const WORK_ORDER_TABLE_KEYS = kit.keys;

/** The table's fields as an order keeps, answers and syncs them. */
export type WorkOrderTableValues = TableValues<Table>;
/** As the synced value carries them (absent: empty). */
export type WorkOrderTableWire = TableWire<Table>;
export type WorkOrderTableInput = TableInput<Table>;

/** The body's, the patch's and the mutators' checks of the table's fields (each may be left out). */
export const workOrderTableInputs = kit.inputs;
/** The REST answer's description of each field (worker/api/work-order-answers.ts). */
export const workOrderTableAnswers = kit.answers;
/** A new order's values: as given, else null. */
export const workOrderTableValuesGiven = kit.given;
/** A patch applied (the browser's copy): undefined keeps a value, null clears it. */
export const workOrderTableValuesPatched = kit.patched;
/** The fields a patch names, as they become: what the Worker's UPDATE sets. */
export const workOrderTableValuesNamed = kit.named;
/** The table's fields of a row, and nothing else. */
export const workOrderTableValuesOf = kit.valuesOf;
export const encodeWorkOrderTable = kit.encode;
export const decodeWorkOrderTable = kit.decode;
/** The New work order form's inputs and the order's details (app/components/table-inputs.tsx), in the table's order. */
export const WORK_ORDER_FORM_FIELDS = kit.formFields;
/** The form's text for each input, as the createWorkOrder mutator takes it (empty: null). */
export const workOrderTableFromText = kit.fromText;
/** The New work order form and the order's details read back, as the mutators take them (empty: null). */
export const workOrderTableFromForm = kit.fromForm;
