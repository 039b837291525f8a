import { useMemo, useState } from "react";
import { useStoreStatus, useVehicles } from "../store";
import { filterVehicles, fleetKnown } from "./filter";

/**
 * A filterable vehicle list's state, the same on the map's panel and the Vehicles page: every
 * vehicle by name, the query typed, the vehicles it matches, and whether the fleet is known yet.
 */
export function useVehicleFilter() {
  const vehicles = useVehicles();
  const status = useStoreStatus();
  const known = fleetKnown(status, vehicles.length);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => filterVehicles(vehicles, query), [vehicles, query]);
  return { vehicles, known, query, setQuery, shown };
}
