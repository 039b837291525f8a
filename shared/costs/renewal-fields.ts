import { z } from "zod";
import { optionalText } from "../maintenance/field-schemas";
import { dayWithin } from "../maintenance/service";
import {
  choiceField,
  fieldTableKit,
  numberField,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A renewal's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0103):
 * what an owner gives when setting a renewal up and the renewal keeps as given. From this table
 * (through shared/fields/field-table.ts) come the REST body and answer (shared/costs/renewals.ts,
 * worker/api/cost-answers.ts, worker/costs/renewal-list.ts), the synced value (each under its short
 * key), the addRenewal mutator's and the Worker's writes (worker/costs/renewal-writes.ts) and the
 * Add renewal form (app/costs/renewal-forms.tsx). A new field is an entry here, its column in
 * db/schema.ts `renewals` (same name) and a migration: docs/add-a-field.md. Written out beside the
 * table: the vehicle and the document's photos; renewing (its own route, a new due date from a
 * month back, `renewedAt` stamped); the status, worked out from the due date each day.
 */

export const renewalKinds = ["registration", "insurance", "permit", "emissions", "other"] as const;
export type RenewalKind = (typeof renewalKinds)[number];
export const renewalKindLabels: Record<RenewalKind, string> = {
  registration: "Registration",
  insurance: "Insurance",
  permit: "Permit",
  emissions: "Emissions test",
  other: "Other",
};

export const DEFAULT_REMIND_DAYS_BEFORE = 30;
const MAX_REMIND_DAYS_BEFORE = 366;

/**
 * How far from today a due date may be (issue 51): a lapsed document set up late, up to two years
 * back; ten years ahead at most.
 */
export const RENEWAL_DAYS_BACK = 2 * 366;
export const RENEWAL_DAYS_AHEAD = 10 * 366;

/** The table. Order: the body's, the answer's and the form's. */
export const RENEWAL_FIELD_TABLE = {
  kind: choiceField(z.enum(renewalKinds, { errorMap: () => ({ message: `One of ${renewalKinds.join(", ")}` }) }), {
    wire: "k",
    labels: renewalKindLabels,
    fallback: "other",
    form: { id: "renewal-kind", label: "Kind", type: "select" },
    example: "permit",
  }),
  name: textField(optionalText(100), {
    wire: "n",
    form: { id: "renewal-name", label: "Name", maxLength: 100, placeholder: "e.g. Harbour permit (optional)" },
    example: "Harbour permit",
  }),
  dueDate: requiredTextField(dayWithin(RENEWAL_DAYS_BACK, RENEWAL_DAYS_AHEAD), {
    wire: "d",
    form: { id: "renewal-due-date", label: "Due date", type: "date", required: true },
    example: "2027-03-31",
    describe: "YYYY-MM-DD, the workspace's day",
  }),
  // a body may leave it out: the default, which is what OpenAPI says too
  remindDaysBefore: numberField(
    z
      .number({ invalid_type_error: "Enter a number of days" })
      .int("Whole days")
      .min(0, "0 or more")
      .max(MAX_REMIND_DAYS_BEFORE, `At most ${MAX_REMIND_DAYS_BEFORE} days`)
      .default(DEFAULT_REMIND_DAYS_BEFORE),
    {
      wire: "r",
      default: DEFAULT_REMIND_DAYS_BEFORE,
      integer: true,
      form: { id: "renewal-remind", label: "Remind days before", type: "number", min: 0, step: "1" },
      example: 14,
    },
  ),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const renewalTable = fieldTableKit(RENEWAL_FIELD_TABLE);
type Table = typeof RENEWAL_FIELD_TABLE;
export type RenewalTableKey = TableKey<Table>;

/** The table's fields as a renewal keeps, answers and syncs them. */
export type RenewalTableValues = TableValues<Table>;
/** As the synced value carries them (the kind and due date always; the name absent when empty, the reminder at 30 days). */
export type RenewalTableWire = TableWire<Table>;
export type RenewalTableInput = TableInput<Table>;
