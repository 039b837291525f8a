import { z } from "zod";

/**
 * Setting a phone up as a vehicle's tracker in one scan (DESIGN.md "Sharing and integrations",
 * GET /api/beacons/:vehicleId/setup): what each app reads from a QR code, built from the server's
 * address and the beacon's device id. Pure, so the Worker answers it and Node tests pin it.
 *
 * - Traccar Client scans an http(s) URL: the part before `?` becomes its server URL, the query its
 *   settings (`id`, `interval` s, `distance` m, `angle` degrees, `accuracy`, `heartbeat` s, ...).
 * - OwnTracks opens `owntracks:///config?inline=` with a base64 `_type: "configuration"` message.
 * - Overland is given its receiver URL and device id to copy (and, on the page, its own
 *   `overland://setup?url=&device_id=` link as a QR code).
 */
export const deviceSetupSchema = z.object({
  traccarClient: z.string(),
  ownTracks: z.string(),
  overland: z.object({ url: z.string(), deviceId: z.string() }),
});
export type DeviceSetup = z.infer<typeof deviceSetupSchema>;

/**
 * Reporting a vehicle wants: a fix every 10 s while driving (the map moves, trips and stops are
 * found), one at a turn or every 50 m as well, high accuracy, and a heartbeat every 5 minutes while
 * parked so the beacon never reads as silent (INACTIVE after 15 minutes).
 */
export const VEHICLE_REPORTING = {
  intervalS: 10,
  distanceM: 50,
  angleDegrees: 30,
  heartbeatS: 300,
} as const;

export function deviceSetup(appUrl: string, deviceId: string): DeviceSetup {
  const api = (path: string) => new URL(`/api/ingest/${path}`, appUrl).href;
  const traccar = new URL(api("osmand"));
  traccar.search = new URLSearchParams({
    id: deviceId,
    interval: String(VEHICLE_REPORTING.intervalS),
    distance: String(VEHICLE_REPORTING.distanceM),
    angle: String(VEHICLE_REPORTING.angleDegrees),
    heartbeat: String(VEHICLE_REPORTING.heartbeatS),
    accuracy: "high",
    buffer: "true",
  }).toString();
  return {
    traccarClient: traccar.href,
    ownTracks: `owntracks:///config?inline=${encodeURIComponent(base64(JSON.stringify(ownTracksConfiguration(api("owntracks"), deviceId))))}`,
    overland: { url: api("overland"), deviceId },
  };
}

/** OwnTracks' configuration message (its booklet, "JSON" and "Remote configuration"). */
export function ownTracksConfiguration(url: string, deviceId: string) {
  return {
    _type: "configuration",
    // 3: HTTP, posting to `url`; the device id travels as the X-Limit-D header.
    mode: 3,
    url,
    deviceId,
    // 2: "move" mode, fixes at moveModeLocatorInterval while moving (Android; iOS reports by distance).
    monitoring: 2,
    moveModeLocatorInterval: VEHICLE_REPORTING.intervalS,
    locatorInterval: VEHICLE_REPORTING.heartbeatS,
    locatorDisplacement: VEHICLE_REPORTING.distanceM,
    // 3: high accuracy (GPS).
    locatorPriority: 3,
  };
}

/** Overland's own setup link, which its iOS app opens from a scanned QR code. */
export const overlandSetupLink = ({ url, deviceId }: DeviceSetup["overland"]) =>
  `overland://setup?${new URLSearchParams({ url, device_id: deviceId }).toString()}`;

/** The configuration's JSON is ASCII (URLs and ids), so btoa, in the Worker and the browser alike. */
const base64 = (text: string) => btoa(text);
