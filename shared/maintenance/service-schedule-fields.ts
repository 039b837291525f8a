import { z } from "zod";
import { text } from "./field-schemas";
import {
  fieldTableKit,
  optionalNumberField,
  requiredTextField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A service schedule's plain fields, one entry each (issue 52 "A field is one edit",
 * docs/decisions/0104): its name and its intervals, kept as given. From this table (through
 * shared/fields/field-table.ts) come the REST body, patch and answer (shared/maintenance/service.ts,
 * worker/api/maintenance-answers.ts, worker/maintenance/schedules.ts), the synced value (each under
 * its short key, shared/sync/maintenance-sync.ts), the mutators' and the Worker's writes, and the
 * Add schedule and Edit forms (app/maintenance/service-forms.tsx). A new field is an entry here,
 * its column in db/schema.ts `service_schedules` (same name) and a migration: docs/add-a-field.md.
 *
 * Written out beside the table: the vehicle (not editable), and the last-done basis (`lastDoneAt`
 * a day or a moment, made ms; the odometer and engine hours taken from the vehicle when not given,
 * and kept, not cleared, by a patch's null: shared scheduleAfterPatch). The intervals are plain
 * values with one rule over them, at least one must remain, checked beside the table
 * (service.ts `hasInterval`). They are answered as any number, as they always were in the OpenAPI
 * document (`integer` false: the days' schema still wants whole days).
 */

/** The table. Order: the body's, the answer's and the forms'. */
export const SERVICE_SCHEDULE_FIELD_TABLE = {
  name: requiredTextField(text(120).min(1, "Required"), {
    wire: "n",
    form: { id: "schedule-name", label: "Name", placeholder: "e.g. Oil change" },
    example: "Oil change",
  }),
  everyMiles: optionalNumberField(positive("miles", 1_000_000).nullish(), {
    wire: "mi",
    integer: false,
    form: { id: "schedule-every-miles", label: "Every (mi)", type: "number", step: "any" },
    example: 5_000,
  }),
  everyEngineHours: optionalNumberField(positive("hours", 100_000).nullish(), {
    wire: "h",
    integer: false,
    form: { id: "schedule-every-hours", label: "Every (engine hours)", type: "number", step: "any" },
    example: 250.5,
  }),
  everyDays: optionalNumberField(
    z
      .number({ invalid_type_error: "Enter a number of days" })
      .int("Whole days")
      .positive("More than 0 days")
      .max(3650, "At most 3650 days")
      .nullish(),
    {
      wire: "d",
      integer: false,
      form: { id: "schedule-every-days", label: "Every (days)", type: "number", step: "1" },
      example: 180,
    },
  ),
};

/** A positive number of `what`, at most `max`. */
function positive(what: string, max: number) {
  return z
    .number({ invalid_type_error: `Enter a number of ${what}` })
    .positive(`More than 0 ${what}`)
    .max(max, `At most ${max} ${what}`);
}

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const serviceScheduleTable = fieldTableKit(SERVICE_SCHEDULE_FIELD_TABLE);
type Table = typeof SERVICE_SCHEDULE_FIELD_TABLE;
export type ServiceScheduleTableKey = TableKey<Table>;

/** The table's fields as a schedule keeps, answers and syncs them (an interval null: none). */
export type ServiceScheduleTableValues = TableValues<Table>;
/** As the synced value carries them (the name always; an interval absent when none). */
export type ServiceScheduleTableWire = TableWire<Table>;
export type ServiceScheduleTableInput = TableInput<Table>;
