import { z } from "zod";
import { text } from "./field-schemas";
import {
  fieldTableKit,
  optionalNumberField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A service entry's plain fields, one entry each (issue 52 "A field is one edit",
 * docs/decisions/0104): what was done, at which figures, for how much and by whom, kept as given.
 * From this table (through shared/fields/field-table.ts) come the REST body and answer
 * (shared/maintenance/service.ts, worker/api/maintenance-answers.ts, worker/maintenance/schedules.ts),
 * the synced value (each under its short key, shared/sync/maintenance-sync.ts), the mutator's and
 * the Worker's writes, and the Log service form (app/maintenance/service-forms.tsx). A new field is
 * an entry here, its column in db/schema.ts `service_entries` (same name) and a migration:
 * docs/add-a-field.md. Written out beside the table: the vehicle and the date (the schedules it
 * restarts count from that day; not in the future), the schedules, issues and photos it names
 * (ids checked against the workspace), and the server's own columns.
 *
 * The texts keep `text(n).nullish()` (an empty text is kept as given, as it always was), and the
 * numbers are answered as any number, as they always were in the OpenAPI document (`integer`
 * false: the cost's schema still wants whole cents).
 */

/** The table. Order: the answer's and the synced value's (the form asks for those with `form`). */
export const SERVICE_ENTRY_FIELD_TABLE = {
  odometerMiles: optionalNumberField(
    z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000).nullish(),
    {
      wire: "o",
      integer: false,
      form: { id: "service-odometer", label: "Odometer (mi)", type: "number", step: "any" },
      example: 45_210.5,
    },
  ),
  engineHours: optionalNumberField(
    z.number({ invalid_type_error: "Enter hours" }).min(0, "0 or more").max(1_000_000).nullish(),
    { wire: "h", integer: false, example: 1_820.25 },
  ),
  description: textField(text(2000).nullish(), {
    wire: "x",
    form: { id: "service-description", label: "What was done", placeholder: "e.g. Oil and filter" },
    example: "Pads and rotors",
  }),
  costCents: optionalNumberField(
    z
      .number({ invalid_type_error: "Enter a cost" })
      .int("Whole cents")
      .min(0, "0 or more")
      .max(100_000_000_00)
      .nullish(),
    {
      wire: "c",
      integer: false,
      form: { id: "service-cost", label: "Cost ($)", type: "number", step: "0.01", scale: 100 },
      example: 24_990,
    },
  ),
  vendor: textField(text(200).nullish(), {
    wire: "vn",
    form: { id: "service-vendor", label: "Vendor" },
    example: "Brake Shop",
  }),
  notes: textField(text(4000).nullish(), {
    wire: "nt",
    form: { id: "service-notes", label: "Notes" },
    example: "Rear pads at 30 %",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const serviceEntryTable = fieldTableKit(SERVICE_ENTRY_FIELD_TABLE);
type Table = typeof SERVICE_ENTRY_FIELD_TABLE;
export type ServiceEntryTableKey = TableKey<Table>;

/** The table's fields as an entry keeps, answers and syncs them (null: none). */
export type ServiceEntryTableValues = TableValues<Table>;
/** As the synced value carries them (absent when none). */
export type ServiceEntryTableWire = TableWire<Table>;
export type ServiceEntryTableInput = TableInput<Table>;
