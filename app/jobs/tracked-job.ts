import { z } from "zod";
import { hourCycleValues } from "../../shared/units/clock";
import { isTimeZone } from "../../shared/units/time-zone";

/**
 * What the customer's page reads from GET /api/track/{token} (DESIGN.md "Jobs and routes"):
 * the job's title, status, ETA and window, and the vehicle's name and position, nothing else of
 * the workspace. Parsed leniently where the contract leaves the shape open (the window as text
 * or as its two ends; the ETA as an instant in ms or ISO 8601), so the page reads the server's
 * answer whichever way it is spelled.
 */
const instant = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : typeof v === "number" ? v : Date.parse(v) || null));

const windowShape = z
  .union([
    z.string(),
    z.object({ start: z.string().nullish(), end: z.string().nullish() }),
    z.object({ windowStart: z.string().nullish(), windowEnd: z.string().nullish() }),
  ])
  .nullish()
  .transform((w) => {
    if (!w) return { start: null, end: null };
    if (typeof w === "string") return { start: w, end: null, text: w };
    if ("windowStart" in w || "windowEnd" in w) {
      const ends = w as { windowStart?: string | null; windowEnd?: string | null };
      return { start: ends.windowStart ?? null, end: ends.windowEnd ?? null };
    }
    const ends = w as { start?: string | null; end?: string | null };
    return { start: ends.start ?? null, end: ends.end ?? null };
  });

const position = z
  .object({
    lat: z.number().optional(),
    lng: z.number().optional(),
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    at: instant.optional(),
  })
  .nullish()
  .transform((p) => {
    const lat = p?.lat ?? p?.latitude;
    const lng = p?.lng ?? p?.longitude;
    return lat === undefined || lng === undefined ? null : { lat, lng, at: p?.at ?? null };
  });

/** Where the visit is, and the address the job names. */
const destination = z
  .object({ latitude: z.number(), longitude: z.number(), address: z.string().nullish() })
  .nullish()
  .transform((d) => (d ? { lat: d.latitude, lng: d.longitude, address: d.address ?? null } : null));

/** The sender's clock, when the server names it (docs/decisions/0079); else the device's. */
const clock = z
  .object({ timeZone: z.string().refine(isTimeZone), hourCycle: z.enum(hourCycleValues) })
  .nullish()
  .transform((c) => c ?? null);

export const trackedJobSchema = z.object({
  /** The workspace that sent the link, whose words the job's title is. */
  sender: z.string().nullish(),
  job: z.object({
    title: z.string(),
    status: z.string(),
    eta: instant.optional(),
    late: z.boolean().optional(),
    window: windowShape.optional(),
    date: z.string().nullish(),
    arrivedAt: instant.optional(),
    completedAt: instant.optional(),
  }),
  /** Where the visit is (issue 53): marked on the map, which is centred on it. */
  destination: destination.optional(),
  clock: clock.optional(),
  vehicle: z.object({ name: z.string(), position: position.optional() }).nullable(),
  /** After delivery, the proof photo where the workspace shows it (docs/decisions/0085). */
  proofPhotoUrl: z.string().startsWith("/api/track/").nullish(),
});
export type TrackedJob = z.infer<typeof trackedJobSchema>;
