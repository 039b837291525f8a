import type { Vehicle } from "../../shared/vehicle";

/** Case-insensitive match on name, VIN, make, model or driver (the list's filter box). */
export function matchesVehicle(vehicle: Vehicle, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [vehicle.name, vehicle.vin, vehicle.make, vehicle.model, vehicle.driver].some((f) => f?.toLowerCase().includes(q));
}
