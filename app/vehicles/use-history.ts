import { useEffect, useState } from "react";
import {
  HISTORY_MAX_POINTS,
  HISTORY_WINDOW_MS,
  historyResponseSchema,
  type HistoryPoint,
} from "../../shared/fleet/vehicle-history";
import { http } from "../lib/http";

/**
 * A vehicle's recent speed and fuel (docs/decisions/0006-telemetry-history.md): read from the
 * Worker when the page opens, then only the new points each time the synced telemetry says the
 * beacon reported again. Charts are a nicety: offline or on an error they simply stay as they are.
 */
export function useHistory(vehicleId: string | undefined, latestReport: number | undefined): HistoryPoint[] | null {
  const [points, setPoints] = useState<HistoryPoint[] | null>(null);

  useEffect(() => setPoints(null), [vehicleId]);

  useEffect(() => {
    if (!vehicleId) return;
    const controller = new AbortController();
    const last = points?.at(-1)?.t;
    if (points && (latestReport === undefined || (last !== undefined && latestReport <= last))) return;
    const since = last !== undefined ? last + 1 : Date.now() - HISTORY_WINDOW_MS;
    http
      .get(`vehicles/${encodeURIComponent(vehicleId)}/history`, { searchParams: { since }, signal: controller.signal })
      .json()
      .then((body) => {
        const fresh = historyResponseSchema.parse(body).points;
        const cutoff = Date.now() - HISTORY_WINDOW_MS;
        // As many points as the first read answers: a page left open all day stays as light.
        setPoints((old) => [...(old ?? []), ...fresh].filter((p) => p.t >= cutoff).slice(-HISTORY_MAX_POINTS));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return; // superseded by a newer fetch
        console.warn("Vehicle history unavailable:", error);
        setPoints((old) => old ?? []);
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `points` is read to know where to continue, not a reason to fetch again
  }, [vehicleId, latestReport]);

  return points;
}
