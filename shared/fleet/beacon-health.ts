import { z } from "zod";
import { msInstant } from "../units/instant";

/**
 * A beacon's health as an operator sees it on the vehicle page (GET
 * /api/beacons/:vehicleId/health): is the tracker reporting, is its clock right, what of what it
 * sent was not used and why. Regenerating the device id (POST /api/beacons/:vehicleId/device-id)
 * answers `DeviceIdRotation`; the old id is refused from then on.
 */
export const REJECT_REASONS = ["clock_ahead", "too_old", "throttled"] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export const rejectReasonLabels: Record<RejectReason, string> = {
  clock_ahead: "device clock ahead of the server",
  too_old: "dated too far in the past",
  throttled: "too many reports (throttled)",
};

/**
 * The app (or protocol) whose report reached the beacon last, so an operator sees at once that a
 * phone works: OsmAnd's query or form parameters (OsmAnd, GPSLogger, older Traccar Clients,
 * hardware trackers), the JSON fix of Traccar Client (the 2025 app), OwnTracks, Overland.
 */
export const DEVICE_APPS = ["osmand", "traccar_client", "owntracks", "overland"] as const;
export type DeviceApp = (typeof DEVICE_APPS)[number];

export const deviceAppLabels: Record<DeviceApp, string> = {
  osmand: "OsmAnd protocol",
  traccar_client: "Traccar Client",
  owntracks: "OwnTracks",
  overland: "Overland",
};

export const beaconHealthSchema = z.object({
  vehicleId: z.string(),
  /** What the tracker sends as `id`: the only credential of ingestion, so null for roles that cannot edit the fleet. */
  deviceId: z.string().nullable(),
  ingestUrl: z.string(),
  lastReportAt: z.number().nullable(),
  /** Which app sent the last report (null before the first, or from before this was kept). */
  lastApp: z.enum(DEVICE_APPS).nullable(),
  /** Reports stored since `since` (the start of the caller's day). */
  reportsToday: z.number(),
  /** Device time minus server time when the device's clock was last seen ahead (ms). */
  clockSkewMs: z.number().nullable(),
  clockSkewAt: z.number().nullable(),
  /**
   * Reports acknowledged but not used, by reason. `no_position`: reports with no coordinates (cells
   * or Wi-Fi only, a GPS with no fix); counted apart from the last refusal's time and reason.
   */
  rejected: z.object({
    clock_ahead: z.number(),
    too_old: z.number(),
    throttled: z.number(),
    no_position: z.number(),
  }),
  /** When the last report without a position came (null: none yet). */
  lastNoPositionAt: z.number().nullable(),
  lastRejectedAt: z.number().nullable(),
  lastRejectedReason: z.enum(REJECT_REASONS).nullable(),
  rotatedAt: z.number().nullable(),
});
export type BeaconHealth = z.infer<typeof beaconHealthSchema>;

export const beaconHealthQuerySchema = z.object({
  /** Start of "today" for the count, in the caller's time zone (ms); defaults to UTC midnight. */
  since: msInstant.optional(),
});

export const beaconParamsSchema = z.object({
  vehicleId: z.string().min(1, "Required").max(100),
});

export const deviceIdRotationSchema = z.object({ deviceId: z.string(), ingestUrl: z.string(), rotatedAt: z.number() });
export type DeviceIdRotation = z.infer<typeof deviceIdRotationSchema>;

/** POST /api/beacons/device-ids/replace (owners): every beacon's new id, for reconfiguring each tracker. */
export const replaceDeviceIdsBodySchema = z.object({
  confirm: z.literal(true, { errorMap: () => ({ message: "Confirm the replacement with confirm: true" }) }),
});
export const replacedDeviceIdsSchema = z.object({
  replacedAt: z.number(),
  ingestUrl: z.string(),
  beacons: z.array(z.object({ vehicleId: z.string(), vehicleName: z.string(), deviceId: z.string() })),
});
export type ReplacedDeviceIds = z.infer<typeof replacedDeviceIdsSchema>;
