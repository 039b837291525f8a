import { addDays } from "../units/time-zone";
import { mpgToLitresPer100Km } from "../units/units";
import type { CostReportQuery, CostReportResponse } from "./cost-report";

/**
 * The Fuel page's economy is the cost report's (docs/figures.md; docs/decisions/0078): per vehicle and
 * for the fleet over the days the page lists, as `GET /api/reports/costs` answers them from each
 * vehicle's whole log (a stretch opened before the range counts, outliers are judged against all the
 * vehicle's stretches). The page used to work the rule out again over the 90 synced days alone, which
 * lost a stretch opened before them and judged outliers against 90 days: the two screens disagreed.
 */
export const FUEL_PAGE_DAYS = 90;

export interface Economy {
  mpg: number | null;
  litresPer100Km: number | null;
}

/** The cost report's query for the Fuel page on `today` (the workspace's day): its 90 days, per vehicle. */
export function fuelPageEconomyQuery(today: string): Pick<CostReportQuery, "from" | "to" | "by"> {
  return { from: addDays(today, -(FUEL_PAGE_DAYS - 1)), to: today, by: "vehicle" };
}

const economyOf = (mpg: number | null): Economy => ({
  mpg,
  litresPer100Km: mpg === null ? null : Math.round(mpgToLitresPer100Km(mpg) * 10) / 10,
});

/** The fleet's economy and each vehicle's that bought fuel in the range, from the report's answer. */
export function fleetEconomyOf(answer: Pick<CostReportResponse, "rows" | "total">) {
  return {
    fleet: economyOf(answer.total.mpg),
    vehicles: answer.rows
      .filter((r) => r.vehicleId && (r.fuelLitres > 0 || r.mpg !== null))
      .map((r) => [r.vehicleId!, economyOf(r.mpg)] as [string, Economy]),
  };
}
