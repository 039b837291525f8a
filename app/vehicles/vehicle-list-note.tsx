import type { ReactNode } from "react";
import type { useVehicleFilter } from "./use-vehicle-filter";

/**
 * What an empty vehicle list means, in both lists (the Vehicles page, the map's panel): still
 * loading, nothing matching the filter, or no vehicle yet (`empty`, each list's own invitation).
 */
export function VehicleListNote({
  filter: { known, vehicles, shown, query, status },
  empty,
}: {
  filter: ReturnType<typeof useVehicleFilter>;
  empty: ReactNode;
}) {
  if (!known) return <p className="muted empty">Loading vehicles…</p>;
  if (vehicles.length === 0) return <p className="muted empty">{empty}</p>;
  if (shown.length === 0 && query) return <p className="muted empty">No vehicle matches “{query}”.</p>;
  if (shown.length === 0 && status) return <p className="muted empty">No vehicle is {status} now.</p>;
  return null;
}
