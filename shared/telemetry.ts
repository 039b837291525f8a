import { z } from "zod";

/**
 * Latest telemetry of a vehicle, one record per vehicle: `telemetry/{vehicleId}`. The key already
 * names the vehicle, so no Replicache index on `vehicleId` is kept (SPEC.md section 3 lists one;
 * nothing would query it, and each write would pay for it). Stored in SI units (m/s, metres); the
 * UI converts to mph and miles.
 */
export const TELEMETRY_PREFIX = "telemetry/";
export const telemetryKey = (vehicleId: string) => `${TELEMETRY_PREFIX}${vehicleId}`;

/** off = ignition off (shown as Parked); idle = ignition on, not moving; towing = moving with ignition off. */
export const telemetryStatuses = ["off", "idle", "moving", "towing"] as const;
export type TelemetryStatus = (typeof telemetryStatuses)[number];

export const telemetrySchema = z.object({
  id: z.string(),
  vehicleId: z.string(),
  status: z.enum(telemetryStatuses),
  /** When the current status began (ms since epoch). */
  statusTimestamp: z.number(),
  /** m/s */
  speed: z.number(),
  /** metres, when the beacon reports it */
  odometer: z.number().nullable(),
  /** percent 0-100, when the beacon reports it */
  fuel: z.number().nullable(),
  latitude: z.number(),
  longitude: z.number(),
  /** degrees clockwise from north */
  heading: z.number().nullable(),
  /** Device time of the report (ms since epoch). */
  recordedAt: z.number(),
});
export type Telemetry = z.infer<typeof telemetrySchema>;
