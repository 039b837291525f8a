import { z } from "zod";
import { msInstant } from "../units/instant";

/**
 * A vehicle's recent telemetry history for the Overview charts (docs/decisions/0006): read on
 * demand from the Worker, not synced, because the positions table grows with every report.
 */
export const HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** At most this many points are answered: enough for a small chart, small on the wire. */
export const HISTORY_MAX_POINTS = 300;

/** A range (`from`/`to`) answers at most this many points, downsampled for the screen (docs/decisions/0014). */
export const HISTORY_RANGE_MAX_POINTS = 1000;
/** The longest range one request may ask for: a day, whatever the report rate. */
export const HISTORY_RANGE_MAX_MS = 24 * 60 * 60 * 1000;

/** ms since epoch, in the years 2000 to 2100 (shared/units/instant.ts). */
const ms = msInstant;
export const historyQuerySchema = z
  .object({
    /** ms since epoch; defaults to 24 h ago. The most recent HISTORY_MAX_POINTS since then (Overview charts). */
    since: ms.optional(),
    /** ms since epoch: a range of positions, downsampled to HISTORY_RANGE_MAX_POINTS (route, trip replay). */
    from: ms.optional(),
    /** ms since epoch, inclusive; defaults to now. Only with `from`. */
    to: ms.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from === undefined) {
      if (q.to !== undefined) ctx.addIssue({ code: "custom", path: ["from"], message: "from is required with to" });
      return;
    }
    if (q.since !== undefined)
      ctx.addIssue({ code: "custom", path: ["since"], message: "since and from cannot be combined" });
    if (q.to !== undefined && q.to < q.from)
      ctx.addIssue({ code: "custom", path: ["to"], message: "to must not be before from" });
    if (q.to !== undefined && q.to - q.from > HISTORY_RANGE_MAX_MS)
      ctx.addIssue({ code: "custom", path: ["to"], message: "at most 24 hours per request" });
  });

export const historyPointSchema = z.object({
  /** device time, ms since epoch */
  t: z.number(),
  /** m/s */
  speed: z.number().nullable(),
  /** percent */
  fuel: z.number().nullable(),
  /** degrees (short names: a replay answers up to 1,000 points) */
  lat: z.number(),
  lng: z.number(),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;

export const historyResponseSchema = z.object({ vehicleId: z.string(), points: z.array(historyPointSchema) });
export type HistoryResponse = z.infer<typeof historyResponseSchema>;
