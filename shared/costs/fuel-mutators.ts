import type { ReadonlyJSONValue, ReadTransaction, WriteTransaction } from "replicache";
import {
  decodeFuelEntry,
  deleteFuelEntryArgs,
  encodeFuelEntry,
  fuelAfterPatch,
  fuelEntryKey,
  fuelFieldsOf,
  logFuelEntryArgs,
  odometerAtMiles,
  updateFuelEntryArgs,
  type DeleteFuelEntryArgs,
  type FuelEntryWire,
  type LogFuelEntryArgs,
  type UpdateFuelEntryArgs,
} from "./fuel";
import { telemetryKey, type TelemetryWire } from "../fleet/telemetry";
import { decodeVehicleEvent, EVENT_PREFIX, isTrip, type VehicleEventWire } from "../fleet/vehicle-event";

/**
 * "Log fuel" (members) and editing or deleting an entry (owners and admins) in the browser:
 * optimistic, offline too, applied by the Worker (worker/sync/fuel-mutators.ts) through the REST
 * routes' own checks and writes (worker/fuel/fuel-writes.ts). The browser chooses the id, so the
 * fill-up shows on the Fuel tab at once; the server's copy replaces this one with the next pull.
 */

/** The odometer at `at` as this device knows it: its synced odometer less its synced trips since (a work order's completion too). */
export async function odometerIn(tx: ReadTransaction, vehicleId: string, at: number): Promise<number | null> {
  const t = (await tx.get(telemetryKey(vehicleId))) as TelemetryWire | undefined;
  if (t?.o === undefined) return null;
  const prefix = `${EVENT_PREFIX}${vehicleId}/`;
  const trips = [];
  for await (const [key, value] of tx.scan({ prefix }).entries()) {
    const e = decodeVehicleEvent(vehicleId, key.slice(prefix.length), value as VehicleEventWire);
    if (isTrip(e.type)) trips.push(e);
  }
  return odometerAtMiles(t.o, trips, at, Date.now());
}

export const fuelMutators = {
  async logFuelEntry(tx: WriteTransaction, input: LogFuelEntryArgs) {
    const { id, ...entry } = logFuelEntryArgs.parse(input);
    if (await tx.has(fuelEntryKey(id))) return;
    const odometer = entry.odometerMiles ?? (await odometerIn(tx, entry.vehicleId, entry.at));
    // encodeFuelEntry leaves absent trailing places out (never undefined): JSON, as Replicache wants.
    await tx.set(fuelEntryKey(id), encodeFuelEntry(fuelFieldsOf(entry, odometer)) as ReadonlyJSONValue);
  },

  async updateFuelEntry(tx: WriteTransaction, input: UpdateFuelEntryArgs) {
    const { id, ...patch } = updateFuelEntryArgs.parse(input);
    const wire = (await tx.get(fuelEntryKey(id))) as FuelEntryWire | undefined;
    if (!wire) return;
    await tx.set(
      fuelEntryKey(id),
      encodeFuelEntry(fuelAfterPatch(decodeFuelEntry(id, wire), patch)) as ReadonlyJSONValue,
    );
  },

  async deleteFuelEntry(tx: WriteTransaction, input: DeleteFuelEntryArgs) {
    await tx.del(fuelEntryKey(deleteFuelEntryArgs.parse(input).id));
  },
};
