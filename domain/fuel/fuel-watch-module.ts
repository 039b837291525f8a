import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import { eventIdOf } from "../fold/motion";
import { emptyFuelWatch, watchFuel, type FuelEventChange, type FuelWatchState } from "./level-watch";

/**
 * The fuel watch (domain/fuel/level-watch.ts) as a module of the fleet fold (docs/decisions/0016,
 * 0050): its state is stored with the vehicle's other fold state in the workspace's object, its
 * refuels and drops become rows of `vehicle_events` (synced and shown like trips and stops), and
 * the modules after it (the alert rules) hear of them through `AcceptedFix.fuelEvents`.
 */
export const FUEL_WATCH_MODULE = "fuelWatch";
/** The flush target (party/live-fleet/flush-tables.ts): `vehicle_events`, keyed by id. */
export const FUEL_EVENTS_TABLE = "fuel_events";

/** A vehicle whose tracker sends no fuel level keeps no state and writes nothing. */
export const fuelWatchModule: FleetModule<FuelWatchState | undefined> = {
  name: FUEL_WATCH_MODULE,
  step(state, accepted: AcceptedFix) {
    const { fix, vehicleId, workspaceId } = accepted;
    if (fix.fuel === null) return { state };
    const next = watchFuel(state ?? emptyFuelWatch(), fix, eventIdOf(vehicleId));
    if (!next.changes.length) return { state: next.state };
    const rows: FlushRow[] = next.changes.map((e) => ({
      table: FUEL_EVENTS_TABLE,
      row: fuelEventRow(workspaceId, vehicleId, e),
    }));
    return { state: next.state, rows, fuelEvents: next.changes };
  },
};

/** The `vehicle_events` row of a refuel or a drop (its version is stamped by the flush). */
export function fuelEventRow(workspaceId: string, vehicleId: string, e: FuelEventChange) {
  return {
    id: e.id,
    workspaceId,
    vehicleId,
    type: e.type,
    startTime: e.start,
    endTime: e.end,
    latitude: e.latitude,
    longitude: e.longitude,
    fuelFrom: Math.round(e.from * 10) / 10,
    fuelTo: Math.round(e.to * 10) / 10,
    deleted: false,
  };
}
