import type { WriteTransaction } from "replicache";
import { z } from "zod";
import {
  assignDriverArgs,
  decodeDriver,
  driverArgs,
  driverKey,
  encodeDriver,
  type AssignDriverArgs,
  type DriverArgs,
  type DriverWire,
} from "../fleet/driver";
import { decodeVehicle, encodeVehicle, vehicleKey, type VehicleWire } from "../fleet/vehicle";
import { VIN_PATTERN, VIN_PATTERN_MESSAGE } from "../fleet/vin";
import { fuelTankLitresSchema } from "../costs/fuel";
import { fuelMutators } from "../costs/fuel-mutators";
import { expenseMutators } from "../costs/expense-mutators";
import { renewalMutators } from "../costs/renewal-mutators";
import { jobMutators } from "../jobs/jobs-mutators";
import { placeMutators } from "../places/places-mutators";
import { issueMutators } from "../maintenance/issues-mutators";
import { serviceMutators } from "../maintenance/service-mutators";
import { inspectionMutators } from "../maintenance/inspection-mutators";
import { workOrderMutators } from "../maintenance/work-order-mutators";

/**
 * Mutations shared by the browser (optimistic, in Replicache) and the Worker (authoritative,
 * worker/sync/mutators.ts). The server checks names against `mutationNames` and arguments against
 * the same schemas.
 */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .nullable()
    .transform((v) => (v ? v : null));

/** A vehicle's identification fields: the Settings form's rules and the mutation's are these. */
const vehicleIdentification = {
  name: z.string({ required_error: "Required" }).trim().min(1, "Required").max(80, "Use at most 80 characters"),
  vin: z
    .string()
    .trim()
    .toUpperCase()
    .nullable()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || VIN_PATTERN.test(v), VIN_PATTERN_MESSAGE),
  year: z
    .number({ invalid_type_error: "Enter a year" })
    .int("Enter a year")
    .min(1900, "Enter a year between 1900 and 2100")
    .max(2100, "Enter a year between 1900 and 2100")
    .nullable(),
  make: optionalText(50),
  model: optionalText(50),
};

/** `fuelTankLitres` absent leaves it as it is (a tab of an older build sends none), null clears it. */
export const updateVehicleArgs = z.object({
  id: z.string().min(1).max(100),
  ...vehicleIdentification,
  fuelTankLitres: fuelTankLitresSchema.nullable().optional(),
});
export type UpdateVehicleArgs = z.input<typeof updateVehicleArgs>;

/** `PATCH /api/vehicles/{id}` (integrators): any of the settings, each optional; null clears a field. */
export const vehiclePatchSchema = z
  .object({ ...vehicleIdentification, fuelTankLitres: fuelTankLitresSchema.nullable() })
  .partial();

/** The Settings form: the same rules, an empty input (undefined from conform) meaning "none". */
export const vehicleSettingsSchema = z.object({
  name: vehicleIdentification.name,
  vin: vehicleIdentification.vin.optional(),
  year: vehicleIdentification.year.optional(),
  make: vehicleIdentification.make.optional(),
  model: vehicleIdentification.model.optional(),
  /** The tank in the workspace's units as the form shows it, gallons or litres (kept in litres: fuelTankLitres). */
  fuelTank: z
    .number({ invalid_type_error: "Enter a number" })
    .positive("More than 0")
    .max(1_900, "Larger than any vehicle's tank")
    .optional(),
});

export const mutators = {
  /**
   * docs/product.md section 7: merges name, vin, year, make, model over vehicle/{id}. The store holds the
   * compact form (shared/fleet/vehicle.ts), so the merge goes through it: a field set to null is left out.
   */
  async updateVehicle(tx: WriteTransaction, input: UpdateVehicleArgs) {
    const args = updateVehicleArgs.parse(input);
    const current = (await tx.get(vehicleKey(args.id))) as VehicleWire | undefined;
    if (!current) return;
    const { id, fuelTankLitres, ...fields } = args;
    const vehicle = { ...decodeVehicle(id, current), ...fields };
    if (fuelTankLitres !== undefined) vehicle.fuelTankLitres = fuelTankLitres;
    await tx.set(vehicleKey(id), encodeVehicle(vehicle));
  },

  /** A new driver (the New Person dialog); the id is made by the browser, so it works offline. */
  async createDriver(tx: WriteTransaction, input: DriverArgs) {
    const { id, ...fields } = driverArgs.parse(input);
    if (await tx.has(driverKey(id))) return;
    await tx.set(driverKey(id), encodeDriver(fields));
  },

  async updateDriver(tx: WriteTransaction, input: DriverArgs) {
    const { id, ...fields } = driverArgs.parse(input);
    if (!(await tx.has(driverKey(id)))) return;
    await tx.set(driverKey(id), encodeDriver(fields));
  },

  /**
   * Assigns a vehicle's driver (or none). The free-text `driver` follows the name, so a tab of an
   * older build, which shows only that, shows the right person too.
   */
  async assignDriver(tx: WriteTransaction, input: AssignDriverArgs) {
    const { vehicleId, driverId } = assignDriverArgs.parse(input);
    const current = (await tx.get(vehicleKey(vehicleId))) as VehicleWire | undefined;
    if (!current) return;
    const driver = driverId ? ((await tx.get(driverKey(driverId))) as DriverWire | undefined) : undefined;
    if (driverId && !driver) return;
    const name = driver ? decodeDriver(driverId!, driver).name : null;
    await tx.set(
      vehicleKey(vehicleId),
      encodeVehicle({ ...decodeVehicle(vehicleId, current), driverId, driver: name }),
    );
  },
  ...placeMutators,
  ...issueMutators,
  ...serviceMutators,
  ...inspectionMutators,
  ...fuelMutators,
  ...expenseMutators,
  ...renewalMutators,
  ...jobMutators,
  ...workOrderMutators,
};

export type Mutators = typeof mutators;
export const mutationNames = Object.keys(mutators) as [keyof Mutators, ...(keyof Mutators)[]];
