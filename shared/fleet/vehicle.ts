import { setIfPresent } from "../sync/wire";

/** Replicache key of a vehicle: `vehicle/{id}` (docs/product.md section 3). */
export const VEHICLE_PREFIX = "vehicle/";
export const vehicleKey = (id: string) => `${VEHICLE_PREFIX}${id}`;

/** A vehicle as the client store holds it (decodeVehicle builds it; nothing parses it with zod). */
export type Vehicle = {
  id: string;
  name: string;
  /** a whole year */
  year: number | null;
  make: string | null;
  model: string | null;
  vin: string | null;
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
 * key's, nulls are left out, the classification is its bare value. The screens read `Vehicle`;
 * `decodeVehicle` is the one way from this form to that one.
 */
export type VehicleWire = {
  /** name */
  n: string;
  /** year */
  y?: number;
  /** make */
  mk?: string;
  /** model */
  md?: string;
  vin?: string;
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
  const w: VehicleWire = { n: v.name, s: v.status, b: v.beaconStatus };
  setIfPresent(w, "y", v.year);
  setIfPresent(w, "mk", v.make);
  setIfPresent(w, "md", v.model);
  setIfPresent(w, "vin", v.vin);
  setIfPresent(w, "d", v.driver);
  setIfPresent(w, "di", v.driverId);
  setIfPresent(w, "c", v.classification?.value);
  setIfPresent(w, "ft", v.fuelTankLitres);
  return w;
}

export function decodeVehicle(id: string, w: VehicleWire): Vehicle {
  return {
    id,
    name: w.n,
    year: w.y ?? null,
    make: w.mk ?? null,
    model: w.md ?? null,
    vin: w.vin ?? null,
    driver: w.d ?? null,
    driverId: w.di ?? null,
    classification: w.c === undefined ? null : { value: w.c },
    status: w.s,
    beaconStatus: w.b,
    fuelTankLitres: w.ft ?? null,
  };
}
