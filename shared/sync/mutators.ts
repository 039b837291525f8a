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
import { vehicleTableFormInputs, vehicleTable } from "../fleet/vehicle-fields";
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
/** `fuelTankLitres` absent leaves it as it is (a tab of an older build sends none), null clears it. */
export const updateVehicleArgs = z.object({
  id: z.string().min(1).max(100),
  ...vehicleTable.inputs,
  fuelTankLitres: fuelTankLitresSchema.nullable().optional(),
});
export type UpdateVehicleArgs = z.input<typeof updateVehicleArgs>;

/** `PATCH /api/vehicles/{id}` (integrators): any of the settings, each optional; null clears a field. */
export const vehiclePatchSchema = z
  .object({ ...vehicleTable.inputs, fuelTankLitres: fuelTankLitresSchema.nullable() })
  .partial();

/** The Settings form: the same rules, an empty input (undefined from conform) meaning "none". */
export const vehicleSettingsSchema = z.object({
  ...vehicleTableFormInputs,
  /** The tank in the workspace's units as the form shows it, gallons or litres (kept in litres: fuelTankLitres). */
  fuelTank: z
    .number({ invalid_type_error: "Enter a number" })
    .positive("More than 0")
    .max(1_900, "Larger than any vehicle's tank")
    .optional(),
});

export const mutators = {
  /**
   * docs/product.md section 7: merges the table's fields (shared/fleet/vehicle-fields.ts: name, vin,
   * year, make, model) and the tank over vehicle/{id}. The store holds the compact form
   * (shared/fleet/vehicle.ts), so the merge goes through it: a field set to null is left out.
   */
  async updateVehicle(tx: WriteTransaction, input: UpdateVehicleArgs) {
    const args = updateVehicleArgs.parse(input);
    const current = (await tx.get(vehicleKey(args.id))) as VehicleWire | undefined;
    if (!current) return;
    const { id, fuelTankLitres, ...fields } = args;
    const kept = decodeVehicle(id, current);
    const vehicle = { ...kept, ...vehicleTable.patched(kept, fields) };
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
