import { countByFleetStatus } from "../../shared/overview/counts";
import type { Telemetry } from "../../shared/fleet/telemetry";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { fleetStatus, type FleetStatus } from "../../shared/fleet/vehicle-state";
import type { ClientStore } from "./client-store";
import { useTypesValue } from "./maintenance";

/**
 * The fleet by the map's colours (moving, idle, parked, silent; shared/fleet/vehicle-state.ts) from the
 * synced store, for the overview's counts and the Vehicles list they open. Telemetry changes many
 * times a second in a moving fleet, so these follow it at most once a minute (derived-value.ts);
 * a vehicle added or whose beacon goes silent shows at once.
 */
const statusOf = (s: ClientStore, v: Vehicle) =>
  fleetStatus(v.beaconStatus, s.get<Telemetry>("telemetry", v.id)?.status);

export function useFleetStatusCounts(): Record<FleetStatus, number> {
  return useTypesValue(["vehicle", "telemetry"], "fleet-status-counts", (s) =>
    countByFleetStatus(s.vehiclesByName<Vehicle>(), (id) => s.get<Telemetry>("telemetry", id)?.status),
  );
}

/** The vehicles in one status, by name; null for no status (every vehicle). */
export function useVehiclesInStatus(status: FleetStatus | null): Vehicle[] | null {
  return useTypesValue(["vehicle", "telemetry"], `vehicles-in-status|${status ?? ""}`, (s) =>
    status ? s.vehiclesByName<Vehicle>().filter((v) => statusOf(s, v) === status) : null,
  );
}
