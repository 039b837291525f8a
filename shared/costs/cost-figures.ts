import { metresToMiles } from "../units/units";

/**
 * A span's cost figures, defined once (docs/figures.md): the cost report's rows and total, its CSV
 * and the overview's costs all come from this function, so two screens showing the same vehicles
 * over the same days show the same cents.
 *
 * - Cost total: fuel bought (each fill-up's cost, by its instant) + service entries + expenses (each
 *   by its local date), in integer cents.
 * - Distance: the GPS distance of the day rollups (`vehicle_day_rollups.distance_metres`, summed over
 *   the span's local days) in miles, to 0.01.
 * - Cost per mile: the total over that distance, in cents to 0.1; null (shown "—") when nothing
 *   was driven or nothing was spent: "$0.00 a mile" would read as a cheap vehicle, not an unrecorded one.
 */
export interface CostSums {
  fuelCostCents: number;
  serviceCostCents: number;
  expenseCostCents: number;
  /** GPS distance from the day rollups */
  distanceMetres: number;
}

export interface CostFigures {
  totalCostCents: number;
  distanceMiles: number;
  costPerMileCents: number | null;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Distance as every report shows it: the day rollups' GPS metres in miles, to 0.01 (the Summary's too). */
export const distanceMilesOf = (metres: number) => round(metresToMiles(metres), 2);

export function costFigures(sums: CostSums): CostFigures {
  const distanceMiles = distanceMilesOf(sums.distanceMetres);
  const totalCostCents = sums.fuelCostCents + sums.serviceCostCents + sums.expenseCostCents;
  return {
    totalCostCents,
    distanceMiles,
    costPerMileCents: distanceMiles > 0 && totalCostCents > 0 ? round(totalCostCents / distanceMiles, 1) : null,
  };
}
