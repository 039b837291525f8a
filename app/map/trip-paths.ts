import { historyResponseSchema } from "../../shared/fleet/vehicle-history";
import { http } from "../lib/http";
import type { TimedPoint } from "./replay";

/**
 * A finished trip's path never changes: kept per trip for the page's life, so going back to a
 * trip (or replaying it again) costs no request. Bounded: only the most recent few trips.
 */
const finished = new Map<string, TimedPoint[]>();
const FINISHED_KEPT = 20;

/**
 * One vehicle's positions between `from` and `to` (ms), downsampled by the Worker to at most
 * 1,000 points (docs/decisions/0014). `final` says the range is over, so the answer is cached.
 */
export async function fetchTrack(
  vehicleId: string,
  from: number,
  to: number,
  { final = false, signal }: { final?: boolean; signal?: AbortSignal } = {},
) {
  const key = `${vehicleId}/${from}/${to}`;
  const cached = finished.get(key);
  if (cached) return cached;
  const body = await http
    .get(`vehicles/${encodeURIComponent(vehicleId)}/history`, {
      searchParams: { from, to },
      signal,
    })
    .json();
  const points = historyResponseSchema.parse(body).points.map(({ t, lat, lng, speed }) => ({ t, lat, lng, speed }));
  if (final) {
    finished.set(key, points);
    if (finished.size > FINISHED_KEPT) finished.delete(finished.keys().next().value!);
  }
  return points;
}
