import { z } from "zod";
import {
  clampPercent,
  deviceIdOf,
  MAX_DEVICE_ID_LENGTH,
  MAX_REPORTS_PER_REQUEST,
  number,
  parseTimestamp,
  plausible,
  ReportError,
  type Report,
} from "./osmand";

/**
 * Overland (iOS, github.com/aaronpk/Overland-iOS): the app POSTs `{ locations: [...] }`, GeoJSON
 * Point features whose properties carry the fix (`timestamp` ISO 8601, `speed` m/s, `altitude`,
 * `horizontal_accuracy`, `battery_level` 0..1, `device_id`); -1 means "unknown" for speed and
 * accuracy. It resends a batch until it reads `{ "result": "ok" }`. Parsed into the same Report as
 * OsmAnd, then ingested by the one path of worker/api/ingest.ts.
 */
const coordinate = z.number({ invalid_type_error: "coordinates must be numbers" });
export const overlandFeatureSchema = z
  .object({
    type: z.literal("Feature").optional(),
    geometry: z.object({
      type: z.literal("Point", { errorMap: () => ({ message: "only Point geometries carry a position" }) }),
      coordinates: z.tuple([coordinate, coordinate]).rest(z.number()),
    }),
    properties: z
      .object({
        timestamp: z.string({ required_error: "timestamp is required" }),
        speed: z.number().optional(),
        course: z.number().optional(),
        altitude: z.number().optional(),
        horizontal_accuracy: z.number().optional(),
        battery_level: z.number().optional(),
        device_id: z
          .string()
          .max(MAX_DEVICE_ID_LENGTH, `A device id has at most ${MAX_DEVICE_ID_LENGTH} characters`)
          .optional(),
      })
      .passthrough(),
  })
  .passthrough();

export const overlandBodySchema = z
  .object({
    locations: z
      .array(overlandFeatureSchema)
      .max(MAX_REPORTS_PER_REQUEST, `At most ${MAX_REPORTS_PER_REQUEST} locations a request`),
  })
  .passthrough();

/** What Overland waits for before it drops the batch from its queue. */
export const overlandAnswerSchema = z.object({ result: z.literal("ok") });

const MISSING_ID = "Missing device id: set the app's Device ID (sent as properties.device_id)";

/** The device id and the positions of an Overland batch; [] when it has none (the app's test ping). */
export function parseOverland(
  body: unknown,
  fallbackDeviceId: string | undefined,
  now = Date.now(),
): { deviceId: string; reports: Report[] } {
  const parsed = overlandBodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReportError(
      `Unreadable Overland batch: ${issue?.path.length ? `${issue.path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`,
    );
  }
  const ids = new Set(parsed.data.locations.map((l) => l.properties.device_id || fallbackDeviceId));
  if (ids.size > 1) throw new ReportError("One batch carries one device id");
  const deviceId = deviceIdOf([...ids][0] ?? fallbackDeviceId ?? undefined, MISSING_ID);
  const reports = parsed.data.locations.map((l) => {
    const [longitude, latitude] = l.geometry.coordinates;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
      throw new ReportError("Unreadable position: coordinates are [longitude, latitude] in degrees");
    const p = l.properties;
    const level = number(p.battery_level);
    return plausible({
      deviceId,
      time: parseTimestamp(p.timestamp, now),
      latitude,
      longitude,
      speed: number(p.speed),
      heading: number(p.course),
      altitude: number(p.altitude),
      accuracy: number(p.horizontal_accuracy),
      // 0..1, or -1 when the phone does not know.
      battery: level === null || level < 0 ? null : clampPercent(level * 100),
      ignition: null,
      fuel: null,
      odometer: null,
    });
  });
  return { deviceId, reports };
}
