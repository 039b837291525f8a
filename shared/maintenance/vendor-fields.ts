import { z } from "zod";
import { optionalText, text } from "./field-schemas";
import {
  fieldTableKit,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A vendor's fields, one entry each (issue 52 "A field is one edit", issue 55,
 * docs/decisions/0100): who does work for the fleet elsewhere and how to reach them, kept as
 * given. From this table (through shared/fields/field-table.ts, the kit of jobs and work orders)
 * come the REST body, patch and answer (shared/maintenance/work-orders.ts,
 * worker/api/work-order-answers.ts, worker/maintenance/work-order-rows.ts), the synced value (each
 * under its short key), the mutators' and the Worker's writes, and the Add a vendor form
 * (app/routes/_app.parts.tsx). A new field is an entry here, its column in db/schema.ts `vendors`
 * (same name) and a migration: docs/add-a-field.md. A vendor has no field with a rule of its own.
 */

/** The table. Order: the form's and the answer's. */
export const VENDOR_FIELD_TABLE = {
  name: requiredTextField(text(200).min(1, "Required"), {
    wire: "n",
    form: { id: "vendor-name", label: "Name", maxLength: 200, required: true },
    example: "Northside Tyres",
  }),
  email: textField(z.string().trim().email("Enter an e-mail address").max(320).nullish(), {
    wire: "e",
    form: { id: "vendor-email", label: "E-mail", type: "email", maxLength: 320 },
    example: "shop@northside.example",
  }),
  phone: textField(optionalText(50), {
    wire: "p",
    form: { id: "vendor-phone", label: "Phone", maxLength: 50 },
    example: "+13125550142",
  }),
  address: textField(optionalText(500), {
    wire: "a",
    example: "12 Mill Road, Springfield",
  }),
  note: textField(optionalText(1000), {
    wire: "x",
    form: { id: "vendor-note", label: "What they do", maxLength: 1000 },
    example: "Tyres and alignment",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const vendorTable = fieldTableKit(VENDOR_FIELD_TABLE);
type Table = typeof VENDOR_FIELD_TABLE;
export type VendorTableKey = TableKey<Table>;

/** The table's fields as a vendor keeps, answers and syncs them. */
export type VendorTableValues = TableValues<Table>;
/** As the synced value carries them (the name always; the others absent when empty). */
export type VendorTableWire = TableWire<Table>;
export type VendorTableInput = TableInput<Table>;
