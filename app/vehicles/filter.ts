import type { Vehicle } from "../../shared/fleet/vehicle";
import { matchesText } from "../lib/text-filter";

/** Case-insensitive match on name, VIN, make, model or driver (the list's filter box). */
export function matchesVehicle(vehicle: Vehicle, query: string): boolean {
  return matchesText([vehicle.name, vehicle.vin, vehicle.make, vehicle.model, vehicle.driver], query);
}

/** The vehicles a filter box shows, in their order: every one for an empty query. */
export function filterVehicles(vehicles: Vehicle[], query: string): Vehicle[] {
  return query.trim() ? vehicles.filter((v) => matchesVehicle(v, query)) : vehicles;
}

/**
 * Whether the list may say what the fleet is ("empty", "no match"): local data has been read, and
 * either it holds vehicles or the server has been heard from (an empty store before the first
 * sync may only not have heard yet, so the list says "Loading" instead of flashing "empty").
 */
export function fleetKnown(status: { hydrated: boolean; pulled: boolean }, vehicleCount: number): boolean {
  return status.hydrated && (status.pulled || vehicleCount > 0);
}
