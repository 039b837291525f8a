import { useMemo, useState } from "react";
import type { FleetStatus } from "../../shared/fleet/vehicle-state";
import { useStoreStatus, useVehicles } from "../store";
import { useVehiclesInStatus } from "../store/overview";
import { filterVehicles, fleetKnown } from "./filter";

/**
 * A filterable vehicle list's state, the same on the map's panel and the Vehicles page: every
 * vehicle by name, the query typed, the vehicles it matches, and whether the fleet is known yet.
 * `status` (the overview's links, `/vehicles?status=idle`) keeps only the vehicles in it.
 */
export function useVehicleFilter(status: FleetStatus | null = null) {
  const vehicles = useVehicles();
  const inStatus = useVehiclesInStatus(status);
  const storeStatus = useStoreStatus();
  const known = fleetKnown(storeStatus, vehicles.length);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => filterVehicles(inStatus ?? vehicles, query), [inStatus, vehicles, query]);
  return { vehicles, known, query, setQuery, shown, status };
}
