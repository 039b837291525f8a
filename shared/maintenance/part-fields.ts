import { z } from "zod";
import { cents, optionalText, text } from "./field-schemas";
import {
  fieldTableKit,
  optionalNumberField,
  requiredNumberField,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A part's plain fields, one entry each (issue 52 "A field is one edit", issue 55,
 * docs/decisions/0100): what the shop gives and the inventory keeps as given. From this table
 * (through shared/fields/field-table.ts, the kit of jobs and work orders) come the REST body, patch
 * and answer (shared/maintenance/work-orders.ts, worker/api/work-order-answers.ts,
 * worker/maintenance/work-order-rows.ts), the synced value (each under its short key), the
 * mutators' and the Worker's writes, and the Add a part form (app/routes/_app.parts.tsx). A new
 * field is an entry here, its column in db/schema.ts `parts` (same name) and a migration:
 * docs/add-a-field.md. The quantity on hand is stock, not a plain field: completing a work order
 * takes from it and reopening gives back, so it stays written out beside the table.
 */

/** The table. Order: the form's and the answer's (the quantity on hand after the unit cost). */
export const PART_FIELD_TABLE = {
  name: requiredTextField(text(200).min(1, "Required"), {
    wire: "n",
    form: { id: "part-name", label: "Name", maxLength: 200, required: true },
    example: "Brake pads",
  }),
  number: textField(optionalText(100), {
    wire: "no",
    form: { id: "part-number", label: "Part number", maxLength: 100 },
    example: "BP-4471",
  }),
  unitCostCents: requiredNumberField(cents("a unit cost"), {
    wire: "u",
    integer: true,
    form: {
      id: "part-unit-cost",
      label: "Unit cost ($)",
      type: "number",
      min: 0,
      step: "0.01",
      required: true,
      scale: 100,
    },
    example: 4500,
  }),
  reorderPoint: optionalNumberField(
    z.number({ invalid_type_error: "Enter a quantity" }).min(0, "0 or more").max(10_000_000).nullish(),
    {
      wire: "r",
      integer: false,
      form: { id: "part-reorder-point", label: "Reorder at", type: "number", min: 0, step: "any" },
      example: 2.5,
    },
  ),
  location: textField(optionalText(200), {
    wire: "l",
    form: { id: "part-location", label: "Where it is kept", maxLength: 200 },
    example: "Shelf B3",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const partTable = fieldTableKit(PART_FIELD_TABLE);
type Table = typeof PART_FIELD_TABLE;
export type PartTableKey = TableKey<Table>;

/** The table's fields as a part keeps, answers and syncs them. */
export type PartTableValues = TableValues<Table>;
/** As the synced value carries them (the name and unit cost always; the others absent when empty). */
export type PartTableWire = TableWire<Table>;
export type PartTableInput = TableInput<Table>;
