import { text } from "../maintenance/field-schemas";
import {
  checkedFormKit,
  fieldTableKit,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A fill-up's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0103):
 * what a driver gives and the fuel log keeps as given, with no rule of its own. From this table
 * (through shared/fields/field-table.ts) come the REST body, patch and answer
 * (shared/costs/fuel.ts, worker/api/fuel-answers.ts, worker/fuel/fuel-log.ts), the synced value
 * (each under its short key in the fill-up's last place, the object of what most fill-ups lack),
 * the mutators' and the Worker's writes (worker/fuel/fuel-writes.ts) and the Log fuel and Edit
 * fill-up forms (app/fuel/fuel-forms.tsx). A new field is an entry here, its column in
 * db/schema.ts `fuelEntries` (same name) and a migration: docs/add-a-field.md.
 *
 * Written out beside it, each with a rule: the time (seconds in the synced value, local time in
 * the form), the volume (rounded when synced, gallons or litres in the form), the cost (a place of
 * the synced array, ADR 0061), whether the tank was filled (synced as `p: 1` when not), the
 * odometer (the GPS odometer's when not given), the vehicle and the receipts.
 */

/** The table. Order: the body's, the answer's and the forms'. */
export const FUEL_FIELD_TABLE = {
  // an empty vendor over REST is kept empty, as before the table (the forms send none as null)
  vendor: textField(text(200).nullish(), {
    wire: "vn",
    form: { id: "fuel-vendor", label: "Vendor", maxLength: 200, placeholder: "e.g. Shell, Main St" },
    example: "Shell, Main St",
  }),
};

const kit = fieldTableKit(FUEL_FIELD_TABLE);
const form = checkedFormKit(FUEL_FIELD_TABLE);
type Table = typeof FUEL_FIELD_TABLE;
export type FuelTableKey = TableKey<Table>;
export const FUEL_TABLE_KEYS = kit.keys;

/** The table's fields as a fill-up keeps, answers and syncs them. */
export type FuelTableValues = TableValues<Table>;
/** As the synced value's last object carries them (absent when empty). */
export type FuelTableWire = TableWire<Table>;
export type FuelTableInput = TableInput<Table>;

/** The body's checks of the table's fields (the patch makes all optional). */
export const fuelTableInputs = kit.inputs;
/** The REST answer's description of each field (worker/api/fuel-answers.ts). */
export const fuelTableAnswers = kit.answers;
/** A new fill-up's values: as given, else null. */
export const fuelTableValuesGiven = kit.given;
/** A patch applied (the browser's copy and the Worker's): undefined keeps a value, null clears it. */
export const fuelTableValuesPatched = kit.patched;
/** The table's fields of a row, and nothing else. */
export const fuelTableValuesOf = kit.valuesOf;
export const encodeFuelTable = kit.encode;
export const decodeFuelTable = kit.decode;
/** The Log fuel and Edit fill-up forms' inputs, in the table's order (after the written-out ones). */
export const FUEL_FORM_FIELDS = kit.formFields;
/** The forms' checks, input by input, giving the body's values (an empty input as null). */
export const fuelFormChecks = form.formChecks;
/** What the Edit form's inputs show of a kept fill-up. */
export const fuelFormValuesOf = form.formValuesOf;
