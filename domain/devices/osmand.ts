import { z } from "zod";
import { knotsToMetresPerSecond } from "../../shared/units/units";
import type { BeaconReport } from "../fold/fold";
import { beforeDeviceEpoch, readDeviceTime } from "../fold/device-time";

/**
 * The OsmAnd protocol that Traccar Client and many trackers speak (DESIGN.md), parsed into one
 * normalised report per position. Units are converted here, once: knots and m/s to m/s,
 * odometer in metres, timestamps to milliseconds. A report is domain/fold/fold.ts's BeaconReport: a
 * fold's Fix with the device, altitude and battery.
 */
export type Report = BeaconReport;

export class ReportError extends Error {}

/**
 * Bounds on what a tracker may claim (issue 23). A device id longer than this is refused (400)
 * before anything keeps it (the throttle's maps, D1). A reading no vehicle can produce is dropped
 * from the report (the position stays useful): a negative speed or odometer, a heading outside
 * 0-360 degrees, an altitude beyond +-20 km, a speed over 350 km/h. Documented in docs/user-guide.md,
 * "Connect a tracker".
 */
export const MAX_DEVICE_ID_LENGTH = 128;
export const MAX_SPEED_MS = 350 / 3.6;
export const MAX_ABS_ALTITUDE_M = 20_000;

export function deviceIdOf(id: string | undefined, missing = "Missing device id: send id (or deviceid)"): string {
  if (!id) throw new ReportError(missing);
  if (id.length > MAX_DEVICE_ID_LENGTH)
    throw new ReportError(`A device id has at most ${MAX_DEVICE_ID_LENGTH} characters`);
  return id;
}

const within = (v: number | null, min: number, max: number) => (v !== null && v >= min && v <= max ? v : null);

/** The readings a vehicle can produce; any other becomes "not reported". */
export function plausible(report: Report): Report {
  return {
    ...report,
    speed: within(report.speed, 0, MAX_SPEED_MS),
    heading: within(report.heading, 0, 360),
    altitude: within(report.altitude, -MAX_ABS_ALTITUDE_M, MAX_ABS_ALTITUDE_M),
    accuracy: within(report.accuracy, 0, Number.MAX_VALUE),
    odometer: within(report.odometer, 0, Number.MAX_VALUE),
  };
}

export const number = (v: unknown): number | null => {
  if (v === undefined || v === null || v === "") return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

const boolean = (v: unknown): boolean | null => {
  if (typeof v === "boolean") return v;
  if (v === "true" || v === "1" || v === 1) return true;
  if (v === "false" || v === "0" || v === 0) return false;
  return null;
};

/** Unix seconds, Unix milliseconds or ISO 8601; a missing timestamp means "now" (domain/fold/device-time.ts). */
export function parseTimestamp(v: unknown, now: number): number {
  const time = readDeviceTime(v, now);
  if (time === null) throw new ReportError(`Unreadable timestamp "${String(v).slice(0, 40)}"`);
  return time;
}

/**
 * A request carrying one report dated before 2000-01-01 is refused (400, issue 39): nothing of
 * it could be used, and the answer tells whoever set the device up that its clock is wrong. In
 * a batch the same report is dropped and counted as `too_old` instead (domain/fold/device-clock.ts),
 * so the rest of the batch is kept and the device's queue moves on.
 */
export function refuseLoneReportBeforeEpoch(reports: Report[]) {
  const [report] = reports;
  if (reports.length === 1 && report && beforeDeviceEpoch(report.time))
    throw new ReportError("The device time is before 2000-01-01: set the device's clock");
}

export function position(lat: unknown, lon: unknown) {
  const latitude = number(lat);
  const longitude = number(lon);
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new ReportError("Unreadable position: lat and lon (or location=lat,lon) are required, in degrees");
  }
  return { latitude, longitude };
}

export function clampPercent(v: number | null) {
  return v === null ? null : Math.min(100, Math.max(0, v));
}

/**
 * A report that locates the device only by the cells and Wi-Fi access points it sees (OsmAnd's
 * `cell` and `wifi` parameters, as in Traccar's own decoder test), with no coordinates. This app
 * does not resolve those to a position, so the report is acknowledged and not stored: refused, the
 * device would resend it for ever. It is counted on the beacon's health (docs/decisions/0090).
 */
export class NoPositionReport extends ReportError {
  constructor(readonly deviceId: string) {
    super("A report with cells or Wi-Fi and no coordinates: acknowledged, no position stored");
  }
}

/** Query-string or form parameters (GET or POST): one report. */
export function parseOsmandParams(params: Record<string, string>, now = Date.now()): Report {
  // Checked first: an overlong id is refused before anything else is read or kept.
  const deviceId = deviceIdOf(params.id ?? params.deviceid);
  const [lat, lon] = params.location ? params.location.split(",") : [params.lat, params.lon];
  if (lat === undefined && lon === undefined && (params.cell || params.wifi)) throw new NoPositionReport(deviceId);
  const knots = number(params.speed);
  return plausible({
    app: "osmand",
    deviceId,
    time: parseTimestamp(params.timestamp, now),
    ...position(lat, lon),
    speed: knots === null ? null : knotsToMetresPerSecond(knots),
    heading: number(params.bearing ?? params.heading),
    altitude: number(params.altitude),
    accuracy: number(params.accuracy),
    battery: clampPercent(number(params.batt)),
    ignition: boolean(params.ignition),
    fuel: clampPercent(number(params.fuel)),
    odometer: number(params.odometer),
  });
}

/**
 * Reports per request (trackers that buffer while offline send a batch): one request is one D1
 * write batch, and the device's throttle (worker/fleet/ingest-throttle.ts) bounds the rest.
 */
export const MAX_REPORTS_PER_REQUEST = 500;

const jsonLocation = z.object({
  timestamp: z.union([z.string(), z.number()]).optional(),
  coords: z.object({
    latitude: z.unknown(),
    longitude: z.unknown(),
    speed: z.unknown().optional(),
    heading: z.unknown().optional(),
    altitude: z.unknown().optional(),
    accuracy: z.unknown().optional(),
  }),
  odometer: z.unknown().optional(),
  battery: z.object({ level: z.unknown().optional() }).partial().optional(),
  extras: z.record(z.unknown()).optional(),
});

const deviceIdField = z
  .string()
  .min(1)
  .max(MAX_DEVICE_ID_LENGTH, `A device id has at most ${MAX_DEVICE_ID_LENGTH} characters`)
  .optional();
export const osmandJsonBodySchema = z.object({
  device_id: deviceIdField,
  deviceId: deviceIdField,
  id: deviceIdField,
  /** One location, or several at once (trackers that buffer while offline send a batch). */
  location: z.union([jsonLocation, z.array(jsonLocation).min(1).max(MAX_REPORTS_PER_REQUEST)]),
});

/** The JSON variant: {"device_id", "location": {"timestamp", "coords": {...}, "odometer", "extras"}}. */
export function parseOsmandJson(body: unknown, now = Date.now()): Report[] {
  const parsed = osmandJsonBodySchema.safeParse(body);
  if (!parsed.success) {
    throw new ReportError(
      `Unreadable report: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
    );
  }
  const deviceId = deviceIdOf(parsed.data.device_id ?? parsed.data.deviceId ?? parsed.data.id);
  const locations = Array.isArray(parsed.data.location) ? parsed.data.location : [parsed.data.location];
  return locations.map((loc) => {
    const extras = loc.extras ?? {};
    const level = number(loc.battery?.level);
    return plausible({
      // The JSON variant is what Traccar Client (the 2025 app) posts.
      app: "traccar_client",
      deviceId,
      time: parseTimestamp(loc.timestamp, now),
      ...position(loc.coords.latitude, loc.coords.longitude),
      speed: number(loc.coords.speed),
      heading: number(loc.coords.heading),
      altitude: number(loc.coords.altitude),
      accuracy: number(loc.coords.accuracy),
      // The JSON variant reports battery as 0..1.
      battery: level === null ? null : clampPercent(level <= 1 ? level * 100 : level),
      ignition: boolean(extras.ignition),
      fuel: clampPercent(number(extras.fuel)),
      odometer: number(loc.odometer ?? extras.odometer),
    });
  });
}
