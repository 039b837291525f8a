import { z } from "zod";
import {
  clampPercent,
  deviceIdOf,
  MAX_DEVICE_ID_LENGTH,
  MAX_REPORTS_PER_REQUEST,
  number,
  parseTimestamp,
  plausible,
  position,
  ReportError,
  type Report,
} from "./osmand";

/**
 * OwnTracks (Android, iOS) in HTTP mode (DESIGN.md "Sharing and integrations"): the app POSTs one
 * JSON message per request (or an array of them, when it flushes a queue); `_type: "location"`
 * carries a position, every other type (transition, waypoint, card, lwt, status...) is accepted
 * and ignored. The device id is the app's Device ID setting, sent as the `X-Limit-D` header.
 * Parsed into the same Report as OsmAnd, then ingested by the one path of worker/api/ingest.ts.
 */
export const owntracksLocationSchema = z
  .object({
    _type: z.literal("location"),
    lat: z.number({ required_error: "lat is required", invalid_type_error: "lat must be a number" }),
    lon: z.number({ required_error: "lon is required", invalid_type_error: "lon must be a number" }),
    /** Unix seconds of the fix. */
    tst: z
      .number({ required_error: "tst is required", invalid_type_error: "tst must be Unix seconds" })
      // JSON's -1e400 reads as -Infinity: no time at all (issue 39).
      .finite("tst must be Unix seconds"),
    /** km/h */
    vel: z.number().optional(),
    /** Course over ground, degrees. */
    cog: z.number().optional(),
    alt: z.number().optional(),
    acc: z.number().optional(),
    /** Battery, percent. */
    batt: z.number().optional(),
  })
  .passthrough();

/** Any message: only `_type` is required of the ones that are ignored. */
export const owntracksMessageSchema = z
  .object({ _type: z.string({ required_error: "_type is required" }) })
  .passthrough();
export const owntracksBodySchema = z.union([
  owntracksMessageSchema,
  z.array(owntracksMessageSchema).max(MAX_REPORTS_PER_REQUEST),
]);

/** What the endpoint answers: OwnTracks reads a JSON array of messages to show (none here). */
export const owntracksAnswerSchema = z.array(z.unknown()).max(0);

export const OWNTRACKS_DEVICE_HEADER = "X-Limit-D";
const MISSING_ID = `Missing device id: set the app's Device ID (sent as ${OWNTRACKS_DEVICE_HEADER})`;

const reasonOf = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `Unreadable OwnTracks message: ${issue?.path.length ? `${issue.path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`;
};

/** The device id (header first, `?d=` for setups that cannot send headers) and the positions in `body`; [] when it has none. */
export function parseOwntracks(
  deviceHeader: string | undefined,
  body: unknown,
): { deviceId: string; reports: Report[] } {
  const deviceId = deviceIdOf(deviceHeader?.trim() || undefined, MISSING_ID);
  if (deviceId.length > MAX_DEVICE_ID_LENGTH)
    throw new ReportError(`A device id has at most ${MAX_DEVICE_ID_LENGTH} characters`);
  // Parsed by shape so a refusal names the field (a union's error would not).
  const parsed = (Array.isArray(body) ? owntracksBodySchema.options[1] : owntracksMessageSchema).safeParse(body);
  if (!parsed.success) throw new ReportError(reasonOf(parsed.error));
  const messages = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
  const reports = messages.filter((m) => m._type === "location").map((m) => locationReport(deviceId, m));
  return { deviceId, reports };
}

function locationReport(deviceId: string, message: unknown): Report {
  const parsed = owntracksLocationSchema.safeParse(message);
  if (!parsed.success) throw new ReportError(reasonOf(parsed.error));
  const m = parsed.data;
  const kmh = number(m.vel);
  return plausible({
    app: "owntracks",
    deviceId,
    time: parseTimestamp(m.tst, Date.now()),
    ...position(m.lat, m.lon),
    speed: kmh === null ? null : kmh / 3.6,
    heading: number(m.cog),
    altitude: number(m.alt),
    accuracy: number(m.acc),
    battery: clampPercent(number(m.batt)),
    ignition: null,
    fuel: null,
    odometer: null,
  });
}
