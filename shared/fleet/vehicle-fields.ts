import { z } from "zod";
import {
  fieldTableKit,
  optionalNumberField,
  requiredTextField,
  textField,
  type TableInput,
  type TableKey,
  type TableValues,
  type TableWire,
} from "../fields/field-table";
import { VIN_PATTERN, VIN_PATTERN_MESSAGE } from "./vin";

/**
 * A vehicle's plain fields, one entry each (issue 52 "A field is one edit", docs/decisions/0105):
 * its identification, as the operator gives it in the Settings tab and the vehicle keeps it. From
 * this table (through shared/fields/field-table.ts) come the updateVehicle mutation's arguments,
 * the REST patch and its answer (shared/sync/mutators.ts, worker/api/vehicle-settings.ts), the
 * synced value (each under its short key: shared/fleet/vehicle.ts, worker/sync/entities.ts), the
 * mutators' and the Worker's writes, and the Settings form's inputs. A new field is an entry here,
 * its column in db/schema.ts `vehicles` (same name) and a migration: docs/add-a-field.md.
 *
 * Written out beside it, each with a rule of its own: the fuel tank (typed in the workspace's
 * gallons or litres, and the object's fuel-drop rules read it), the planner's capacity, shift and
 * home place (REST only, the shift in order, the place the workspace's), the driver (assigned, its
 * name following the person), the classification, and the fleet and beacon statuses.
 */

/** A text the vehicle may lack: trimmed, empty as none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .nullable()
    .transform((v) => (v ? v : null));

/**
 * The table. Order: the Settings form's, the patch's and the answer's. These five are nullable
 * and not optional: the updateVehicle mutation (the Settings form's save) gives each of them. A
 * new field's schema must also accept undefined (`optionalText(n).optional()`), which keeps it,
 * so a tab of an older build, which does not send it, is not refused.
 */
export const VEHICLE_FIELD_TABLE = {
  name: requiredTextField(
    z.string({ required_error: "Required" }).trim().min(1, "Required").max(80, "Use at most 80 characters"),
    {
      wire: "n",
      form: { id: "vehicle-name", label: "Vehicle Name", required: true },
      example: "Van 12",
    },
  ),
  vin: textField(
    z
      .string()
      .trim()
      .toUpperCase()
      .nullable()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || VIN_PATTERN.test(v), VIN_PATTERN_MESSAGE),
    { wire: "vin", form: { id: "vehicle-vin", label: "VIN" }, example: "1HGCM82633A004352" },
  ),
  year: optionalNumberField(
    z
      .number({ invalid_type_error: "Enter a year" })
      .int("Enter a year")
      .min(1900, "Enter a year between 1900 and 2100")
      .max(2100, "Enter a year between 1900 and 2100")
      .nullable(),
    { wire: "y", integer: true, form: { id: "vehicle-year", label: "Year", type: "number" }, example: 2019 },
  ),
  make: textField(optionalText(50), {
    wire: "mk",
    form: { id: "vehicle-make", label: "Make" },
    example: "Ford",
  }),
  model: textField(optionalText(50), {
    wire: "md",
    form: { id: "vehicle-model", label: "Model" },
    example: "Transit",
  }),
};

/** Everything derived from the table (shared/fields/field-table.ts `fieldTableKit`): checks, answers, codecs, form. */
export const vehicleTable = fieldTableKit(VEHICLE_FIELD_TABLE);
type Table = typeof VEHICLE_FIELD_TABLE;
export type VehicleTableKey = TableKey<Table>;

/** The table's fields as a vehicle keeps, answers and syncs them. */
export type VehicleTableValues = TableValues<Table>;
/** As the synced value carries them (the name always; the others absent when empty). */
export type VehicleTableWire = TableWire<Table>;
export type VehicleTableInput = TableInput<Table>;

/** The Settings form's checks: the same, a field left empty (undefined from conform) as none. */
export const vehicleTableFormInputs = z.object(vehicleTable.inputs).partial().required({ name: true }).shape;
/** What each form input shows when the vehicle has no value: an empty text, no number. */
export const vehicleTableFormDefault = (key: VehicleTableKey) =>
  VEHICLE_FIELD_TABLE[key].kind === "number" ? undefined : "";
