import { z } from "zod";

/**
 * A vehicle's recent telemetry history for the Overview charts (docs/decisions/0006): read on
 * demand from the Worker, not synced, because the positions table grows with every report.
 */
export const HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** At most this many points are answered: enough for a small chart, small on the wire. */
export const HISTORY_MAX_POINTS = 300;

export const historyQuerySchema = z.object({
  /** ms since epoch; defaults to 24 h ago. */
  since: z.coerce.number().int().nonnegative().optional(),
});

export const historyPointSchema = z.object({
  /** device time, ms since epoch */
  t: z.number(),
  /** m/s */
  speed: z.number().nullable(),
  /** percent */
  fuel: z.number().nullable(),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;

export const historyResponseSchema = z.object({ vehicleId: z.string(), points: z.array(historyPointSchema) });
export type HistoryResponse = z.infer<typeof historyResponseSchema>;
