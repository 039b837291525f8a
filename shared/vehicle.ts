import { z } from "zod";

/** Replicache key of a vehicle: `vehicle/{id}` (SPEC.md section 3). */
export const VEHICLE_PREFIX = "vehicle/";
export const vehicleKey = (id: string) => `${VEHICLE_PREFIX}${id}`;

/** Fleet lifecycle status shown in the vehicle list's Status column. */
export const vehicleStatuses = ["ACTIVE", "INACTIVE", "IN_SHOP", "OUT_OF_SERVICE"] as const;

/** A vehicle as the client store holds it. */
export const vehicleSchema = z.object({
  id: z.string(),
  name: z.string(),
  year: z.number().int().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  vin: z.string().nullable(),
  driver: z.string().nullable(),
  /** e.g. { value: "PICKUP_TRUCK" }; shown as "Pickup Truck" (SUV stays SUV). */
  classification: z.object({ value: z.string() }).nullable(),
  status: z.string(),
  /** ACTIVE once its beacon reports (green icon); anything else is grey. */
  beaconStatus: z.string(),
});
export type Vehicle = z.infer<typeof vehicleSchema>;
