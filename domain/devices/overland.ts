import { z } from "zod";
import {
  clampPercent,
  deviceIdOf,
  MAX_DEVICE_ID_LENGTH,
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
 *
 * Its "Locations per Batch" setting goes up to 1,000 points (about 713 bytes each as the app
 * writes them): every batch it can send is taken (docs/decisions/0043-device-apps-as-they-send.md).
 */
export const OVERLAND_MAX_LOCATIONS = 1_000;
/** 1,000 points of the app's shape are ~713 KB; twice that leaves room for long Wi-Fi names and motion lists. */
export const OVERLAND_MAX_BODY_BYTES = 2 * 1024 * 1024;

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

/** The batch as documented (the OpenAPI description); parsing checks its envelope, then feature by feature. */
export const overlandBodySchema = z
  .object({
    locations: z
      .array(overlandFeatureSchema)
      .max(OVERLAND_MAX_LOCATIONS, `At most ${OVERLAND_MAX_LOCATIONS} locations a request`),
  })
  .passthrough();

const envelopeSchema = z.object({
  locations: z.array(z.unknown()).max(OVERLAND_MAX_LOCATIONS, `At most ${OVERLAND_MAX_LOCATIONS} locations a request`),
});

/**
 * One feature, only the fields a report keeps: zod's default strips the rest (motion, wifi,
 * activity...), so what a 1,000-point batch leaves in memory after parsing is 1,000 small reports,
 * not a second copy of every feature.
 */
const featureFieldsSchema = z.object({
  geometry: overlandFeatureSchema.shape.geometry,
  properties: overlandFeatureSchema.shape.properties.strip(),
});

/** What Overland waits for before it drops the batch from its queue. */
export const overlandAnswerSchema = z.object({ result: z.literal("ok") });

const MISSING_ID =
  "Missing device id: set the app's Device ID (sent as properties.device_id) or its Access Token to the device id";

const refusal = (error: z.ZodError, at: (string | number)[] = []) => {
  const issue = error.issues[0];
  const path = [...at, ...(issue?.path ?? [])];
  return new ReportError(
    `Unreadable Overland batch: ${path.length ? `${path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`,
  );
};

/** Each feature's fields, checked one by one (a refusal names the feature's index). */
function featuresOf(body: unknown) {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw refusal(envelope.error);
  return envelope.data.locations.map((feature, i) => {
    const parsed = featureFieldsSchema.safeParse(feature);
    if (!parsed.success) throw refusal(parsed.error, ["locations", i]);
    return parsed.data;
  });
}

/**
 * The device id and the positions of an Overland batch; [] when it has none (the app's test ping).
 * The id is `properties.device_id`; when the app leaves it empty (its default), `fallbackDeviceId`:
 * the `device_id` query parameter or the app's access token (`Authorization: Bearer`).
 */
export function parseOverland(
  body: unknown,
  fallbackDeviceId: string | undefined,
  now = Date.now(),
): { deviceId: string; reports: Report[] } {
  const locations = featuresOf(body);
  const ids = new Set(locations.map((l) => l.properties.device_id || fallbackDeviceId));
  if (ids.size > 1) throw new ReportError("One batch carries one device id");
  const deviceId = deviceIdOf([...ids][0] ?? fallbackDeviceId ?? undefined, MISSING_ID);
  const reports = locations.map((l) => {
    const [longitude, latitude] = l.geometry.coordinates;
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
      throw new ReportError("Unreadable position: coordinates are [longitude, latitude] in degrees");
    const p = l.properties;
    const level = number(p.battery_level);
    return plausible({
      app: "overland",
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
