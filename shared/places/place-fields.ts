import { z } from "zod";
import {
  fieldTableKit,
  requiredTextField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";

/**
 * A place's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0105):
 * what a person gives a place and it keeps as given. From this table (through
 * shared/fields/field-table.ts, the kit of jobs, work orders, parts and vendors) come the REST
 * body, patch and answer (shared/places/places.ts, worker/api/places.ts), the synced value (each
 * under its short key), the mutators' and the Worker's writes (worker/sync/places-mutators.ts,
 * db/capped-insert.ts) and the inputs of a place's row in /locations. A new field is an entry
 * here, its column in db/schema.ts `places` (same name) and a migration: docs/add-a-field.md.
 * The geometry has rules of its own (a circle or a polygon, rings closed and checked for
 * crossings, caps on points) and stays written out in places.ts, after the table's fields.
 */

const placeName = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "Required")
  .max(80, "Use at most 80 characters");

/** The table. Order: the body's, the answer's and the row's inputs. */
export const PLACE_FIELD_TABLE = {
  name: requiredTextField(placeName, {
    wire: "n",
    form: { id: "place-name", label: "Place name", maxLength: 80, required: true },
    example: "North yard",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const placeTable = fieldTableKit(PLACE_FIELD_TABLE);
type Table = typeof PLACE_FIELD_TABLE;
export type PlaceTableKey = TableKey<Table>;

/** The table's fields as a place keeps, answers and syncs them. */
export type PlaceTableValues = TableValues<Table>;
/** As the synced value carries them (the name always; an optional field absent when empty). */
export type PlaceTableWire = TableWire<Table>;
export type PlaceTableInput = TableInput<Table>;
