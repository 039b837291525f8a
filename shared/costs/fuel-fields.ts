import { text } from "../maintenance/field-schemas";
import {
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

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const fuelTable = fieldTableKit(FUEL_FIELD_TABLE);
type Table = typeof FUEL_FIELD_TABLE;
export type FuelTableKey = TableKey<Table>;

/** The table's fields as a fill-up keeps, answers and syncs them. */
export type FuelTableValues = TableValues<Table>;
/** As the synced value's last object carries them (absent when empty). */
export type FuelTableWire = TableWire<Table>;
export type FuelTableInput = TableInput<Table>;
