import type { FuelEconomy } from "../../shared/costs/fuel";
import { KM_PER_MILE, litresToGallons, type WorkspaceUnits } from "../../shared/units/units";

/**
 * Fuel figures in the workspace's units (Preferences, docs/decisions/0060): US gallons, miles and
 * mpg, or litres, km and L/100 km. The figures themselves stay litres and miles.
 */
const figure = (value: number, digits: number) => value.toLocaleString("en-US", { maximumFractionDigits: digits });

export const volumeText = (litres: number, units: WorkspaceUnits) =>
  units === "metric" ? `${figure(litres, 1)} L` : `${figure(litresToGallons(litres), 2)} gal`;

export const distanceText = (miles: number, units: WorkspaceUnits) =>
  units === "metric" ? `${figure(miles * KM_PER_MILE, 0)} km` : `${figure(miles, 0)} mi`;

/** "24.3 mpg" or "9.7 L/100 km"; null when there is nothing to count yet. */
export function economyText(e: Pick<FuelEconomy, "mpg" | "litresPer100Km">, units: WorkspaceUnits): string | null {
  if (units === "metric") return e.litresPer100Km === null ? null : `${figure(e.litresPer100Km, 1)} L/100 km`;
  return e.mpg === null ? null : `${figure(e.mpg, 1)} mpg`;
}

/** How a distance unit is named: "mi" after a figure, "mile" in "Cost per mile"; km either way. */
export const distanceUnit = (units: WorkspaceUnits) => (units === "metric" ? "km" : "mi");
export const distanceWord = (units: WorkspaceUnits) => (units === "metric" ? "km" : "mile");

/** A cost per mile (how the API and the store keep it) as a cost per the workspace's distance unit. */
export const perDistanceCents = (centsPerMile: number, units: WorkspaceUnits) =>
  units === "metric" ? centsPerMile / KM_PER_MILE : centsPerMile;
