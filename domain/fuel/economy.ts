/**
 * Fuel economy, full tank to full tank, lives in shared/fuel-economy.ts since the Fuel page works it
 * out in the browser too (docs/decisions/0060); the Worker's readers keep this path.
 */
export {
  economyOutliers,
  fuelEconomy,
  stretchesOf,
  type EconomyEntry,
  type FuelEconomy,
} from "../../shared/fuel-economy";
