import { z } from "zod";

/** Beacons per order: enough for a real fleet's batch, small enough to be one D1 batch. */
export const MAX_BEACONS_PER_ORDER = 100;

export const beaconOrderSchema = z.object({
  workspaceId: z.string({ required_error: "Required" }).min(1, "Required").max(100),
  count: z.coerce
    .number({ required_error: "Required", invalid_type_error: "Enter a number" })
    .int("Enter a whole number")
    .min(1, "Order at least 1 beacon")
    .max(MAX_BEACONS_PER_ORDER, `Order at most ${MAX_BEACONS_PER_ORDER} beacons at a time`),
});

export interface Beacon {
  /** The device identifier a tracker sends as `id`. */
  id: string;
  vehicleId: string;
  /** e.g. "Vehicle 3" */
  vehicleName: string;
  /** Where a tracker reports (OsmAnd protocol), for the operator to configure the device. */
  ingestUrl: string;
}
