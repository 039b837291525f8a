import type { SyncedExpense } from "../../shared/costs/expenses";
import type { SyncedFuelEntry } from "../../shared/costs/fuel";
import type { SyncedServiceEntry } from "../../shared/sync/maintenance-sync";
import { countByFleetStatus } from "../../shared/overview/counts";
import { monthCost, type CostInputs, type MonthCost } from "../../shared/overview/month-cost";
import type { MonthSpan } from "../../shared/overview/months";
import { metresToMiles } from "../../shared/units/units";
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

/**
 * This month so far and last month: fuel + service + expenses and cost per mile, from the synced
 * fill-ups, service entries and expenses (90 days each) and each vehicle's odometer now
 * (shared/overview/month-cost.ts). Vehicles no longer in the fleet are left out, as on the Fuel page.
 */
export function useMonthCosts(months: { current: MonthSpan; previous: MonthSpan }): {
  current: MonthCost;
  previous: MonthCost;
} {
  const { current, previous } = months;
  return useTypesValue(
    ["fuel-entry", "service-entry", "expense", "vehicle", "telemetry"],
    `month-costs|${current.start}|${previous.start}`,
    (s) => {
      const inputs = costInputs(s);
      return { current: monthCost(inputs, current, Date.now()), previous: monthCost(inputs, previous) };
    },
  );
}

function costInputs(s: ClientStore): CostInputs {
  const inFleet = (row: { vehicleId: string }) => Boolean(s.get<Vehicle>("vehicle", row.vehicleId));
  return {
    fuel: s.list<SyncedFuelEntry>("fuel-entry").filter(inFleet),
    service: s.list<SyncedServiceEntry>("service-entry").filter(inFleet),
    expenses: s.list<SyncedExpense>("expense").filter(inFleet),
    odometersNow: s
      .list<Telemetry>("telemetry")
      .filter((t) => t.odometer !== null && inFleet(t))
      .map((t) => ({ vehicleId: t.vehicleId, at: t.recordedAt, miles: metresToMiles(t.odometer!) })),
  };
}
