import { z } from "zod";
import { emailField } from "../account/auth";
import { customerPhoneField } from "./customer-messages";
import {
  fieldTableKit,
  numberField,
  textField,
  type FieldFlags,
  type FieldFormInput,
  type FieldSpec,
  type NumberSchema,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
  type TextSchema,
} from "../fields/field-table";

/**
 * A job's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0082):
 * a value a planner gives and the job keeps as given, with no rule of its own. From this table
 * come the REST body, patch and answer (shared/jobs/jobs.ts, worker/api/job-answers.ts), the
 * synced value (each under its short key in the wire's last object, left out when empty or
 * default), the New job form's inputs and values (app/jobs/), the CSV import's columns (after the
 * fixed ones) and its bulk INSERT. A new field is an entry here, its column in db/schema.ts (same
 * name) and a migration: docs/add-a-field.md. The fields with rules or encodings of their own
 * (the day, the order, the point, the window, the status and its times, the proof) stay written
 * out in shared/jobs/jobs.ts. The derivations are the kit's, shared with work orders
 * (shared/fields/field-table.ts).
 */

export const DEFAULT_JOB_RADIUS_M = 150;
export const MAX_JOB_RADIUS_M = 10_000;
export const DEFAULT_JOB_DURATION_MIN = 5;
/** A job's day at most: a stop longer than that is a different kind of plan. */
export const MAX_JOB_DURATION_MIN = 24 * 60;

/** A text a job may lack: left out stays left out (a PATCH that does not name it keeps it); empty clears it. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null));

/** How a field is asked for in the New job form (app/jobs/new-job-form.tsx); the input's name is the field's. */
export type JobFormInput = FieldFormInput;

type JobFlags<W extends string> = FieldFlags<W> & {
  /** A column of the CSV import, named as the field, after the fixed ones. */
  csv: boolean;
};
export type JobFieldSpec = FieldSpec & { csv: boolean };

/** A text a job may lack (null: none). */
const text = <W extends string>(schema: TextSchema, flags: JobFlags<W>) => ({
  ...textField(schema, flags),
  csv: flags.csv,
});
/** A number every job has, `default` when not given. */
const number = <W extends string>(schema: NumberSchema, spec: JobFlags<W> & { default: number; integer: boolean }) => ({
  ...numberField(schema, spec),
  csv: spec.csv,
});

const radiusMeters = z
  .number({ invalid_type_error: "Enter metres" })
  .min(10, "At least 10 m")
  .max(MAX_JOB_RADIUS_M, `At most ${MAX_JOB_RADIUS_M} m`);
const durationMinutes = z
  .number({ invalid_type_error: "Enter minutes" })
  .int("Whole minutes")
  .min(0, "0 or more")
  .max(MAX_JOB_DURATION_MIN, `At most ${MAX_JOB_DURATION_MIN} minutes`);
/** The most a job's size may be: a vehicle's capacity is at most as much (shared/jobs/route-plan.ts). */
export const MAX_JOB_SIZE = 1_000_000;
const size = z
  .number({ invalid_type_error: "Enter a whole number" })
  .int("A whole number")
  .min(1, "1 or more")
  .max(MAX_JOB_SIZE, "At most 1,000,000");
const customerEmail = emailField.nullish().or(z.literal("").transform(() => null));

/** The table. Order: the form's, the CSV's extra columns' and the answer's. */
export const JOB_FIELD_TABLE = {
  radiusMeters: number(radiusMeters, {
    wire: "r",
    default: DEFAULT_JOB_RADIUS_M,
    integer: false,
    csv: false,
    example: 80,
  }),
  durationMinutes: number(durationMinutes, {
    wire: "m",
    default: DEFAULT_JOB_DURATION_MIN,
    integer: true,
    csv: false,
    form: {
      id: "job-duration",
      label: "Duration (min)",
      type: "number",
      placeholder: String(DEFAULT_JOB_DURATION_MIN),
      min: 0,
    },
    example: 12,
  }),
  size: number(size, {
    wire: "sz",
    default: 1,
    integer: true,
    csv: true,
    form: { id: "job-size", label: "Size", type: "number", placeholder: "1", min: 1 },
    example: 3,
    describe: "How much of a vehicle's capacity the job takes when planned (boxes, pallets, seats): 1 unless given",
  }),
  customerName: text(optionalText(200), {
    wire: "cn",
    csv: false,
    form: { id: "job-customer", label: "Customer" },
    example: "Ann Lee",
  }),
  customerEmail: text(customerEmail, {
    wire: "ce",
    csv: false,
    form: { id: "job-customer-email", label: "Customer e-mail", type: "email" },
    example: "ann@example.com",
  }),
  customerPhone: text(customerPhoneField, {
    wire: "cp",
    csv: false,
    form: { id: "job-customer-phone", label: "Customer phone", type: "tel", placeholder: "+13125550100" },
    example: "+13125550100",
    describe: "E.164: told by text where an SMS provider is configured",
  }),
  notes: text(optionalText(2000), {
    wire: "no",
    csv: false,
    form: { id: "job-notes", label: "Notes", type: "textarea" },
    example: "Ring twice",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const jobTable = fieldTableKit(JOB_FIELD_TABLE);
type Table = typeof JOB_FIELD_TABLE;
export type JobTableKey = TableKey<Table>;

/** The table's fields as a job keeps, answers and syncs them. */
export type JobTableValues = TableValues<Table>;
/** As the synced value's last object carries them (absent: empty or default). */
export type JobTableWire = TableWire<Table>;
/** As a body or a patch gives them: any may be left out; null clears a text. */
export type JobTableInput = TableInput<Table>;

/** The CSV import's columns after the fixed ones. */
export const JOB_TABLE_CSV_COLUMNS = jobTable.keys.filter((k) => JOB_FIELD_TABLE[k].csv);
