import { setIfPresent } from "../sync/wire";
import { type VehicleTableValues, type VehicleTableWire, vehicleTable } from "./vehicle-fields";

/** Replicache key of a vehicle: `vehicle/{id}` (docs/product.md section 3). */
export const VEHICLE_PREFIX = "vehicle/";
export const vehicleKey = (id: string) => `${VEHICLE_PREFIX}${id}`;

/**
 * A vehicle as the client store holds it (decodeVehicle builds it; nothing parses it with zod): the
 * table's fields (shared/fleet/vehicle-fields.ts: name, VIN, year, make, model), then the others.
 */
export type Vehicle = VehicleTableValues & {
  id: string;
  driver: string | null;
  /** The assigned driver (`driver/{id}`), one or none (docs/decisions/0018). */
  driverId: string | null;
  /** e.g. { value: "PICKUP_TRUCK" }; shown as "Pickup Truck" (SUV stays SUV). */
  classification: { value: string } | null;
  /** Fleet lifecycle status shown in the vehicle list's Status column (ACTIVE, IN_SHOP, ...). */
  status: string;
  /** ACTIVE once its beacon reports (green icon); anything else is grey. */
  beaconStatus: string;
  /** The fuel tank's capacity in litres, when set (issue 42): fill-ups above it are flagged. */
  fuelTankLitres: number | null;
};

/**
 * A vehicle as it is synced and stored under `vehicle/{id}` (docs/decisions/0013): the id is the
 * key's, nulls are left out, the classification is its bare value. The table's fields are under
 * their own keys (name `n`, year `y`, make `mk`, model `md`, `vin`). The screens read `Vehicle`;
 * `decodeVehicle` is the one way from this form to that one.
 */
export type VehicleWire = VehicleTableWire & {
  /** driver (free text, from before drivers were people) */
  d?: string;
  /** driverId */
  di?: string;
  /** classification value, e.g. PICKUP_TRUCK */
  c?: string;
  /** status */
  s: string;
  /** beaconStatus */
  b: string;
  /** fuelTankLitres */
  ft?: number;
};

export function encodeVehicle(v: Omit<Vehicle, "id">): VehicleWire {
  const w = { s: v.status, b: v.beaconStatus } as VehicleWire;
  vehicleTable.encode(v, w);
  setIfPresent(w, "d", v.driver);
  setIfPresent(w, "di", v.driverId);
  setIfPresent(w, "c", v.classification?.value);
  setIfPresent(w, "ft", v.fuelTankLitres);
  return w;
}

export function decodeVehicle(id: string, w: VehicleWire): Vehicle {
  return {
    id,
    ...vehicleTable.decode(w),
    driver: w.d ?? null,
    driverId: w.di ?? null,
    classification: w.c === undefined ? null : { value: w.c },
    status: w.s,
    beaconStatus: w.b,
    fuelTankLitres: w.ft ?? null,
  };
}
