import { z } from "zod";
import { INSTANT_RANGE_MESSAGE, isDayInRange } from "../units/instant";
import { addDays, daysBetween } from "../units/time-zone";

/**
 * The cost report (issue 42, DESIGN.md "Fuel, costs and renewals"): what the fleet cost over a
 * range, per vehicle or per month, and the fleet total. A year fits: costs are read by the month.
 */
export const MAX_COST_REPORT_DAYS = 366;

const day = z
  .string({ required_error: "Required" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date (2026-11-23)")
  .refine(isDayInRange, INSTANT_RANGE_MESSAGE);

export const costReportQuerySchema = z.object({
  from: day,
  to: day,
  /** none: every vehicle of the workspace */
  vehicleId: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string().min(1).max(100)).max(1000, "At most 1000 vehicles")),
  by: z.enum(["vehicle", "month"]).default("vehicle"),
  format: z.enum(["json", "csv"]).default("json"),
});
export type CostReportQuery = z.infer<typeof costReportQuerySchema>;

/** Checks the cost report's range of local days. Null when fine. */
export function costRangeProblem(fromDay: string, toDay: string): string | null {
  const days = daysBetween(fromDay, toDay) + 1;
  if (days < 1) return "`from` is after `to`";
  if (days > MAX_COST_REPORT_DAYS)
    return `The cost report covers at most ${MAX_COST_REPORT_DAYS} days; this range has ${days}`;
  return null;
}

/** One row: a vehicle's or a month's costs (or the fleet total, with neither). */
export interface CostRow {
  vehicleId?: string;
  vehicleName?: string;
  /** YYYY-MM, local to the workspace */
  month?: string;
  fuelCostCents: number;
  fuelLitres: number;
  /** GPS distance from the day rollups, as the Summary report measures it */
  distanceMiles: number;
  /** full tank to full tank, flagged fill-ups left out; null when no clean stretch */
  mpg: number | null;
  serviceCostCents: number;
  /** Work orders' labour and parts (shared/costs/work-order-costs.ts), both within serviceCostCents (which adds their tax and other service). */
  laborCostCents: number;
  partsCostCents: number;
  expenseCostCents: number;
  expensesByKind: Record<string, number>;
  totalCostCents: number;
  /** null when no distance */
  costPerMileCents: number | null;
}

export interface CostReportResponse {
  timeZone: string;
  from: string;
  to: string;
  by: "vehicle" | "month";
  rows: CostRow[];
  total: CostRow;
}

/** The local months (YYYY-MM) a range of days touches, in order. */
export function monthsOf(fromDay: string, toDay: string): string[] {
  const months: string[] = [];
  for (let d = fromDay; d <= toDay; d = addDays(`${d.slice(0, 7)}-01`, 32).slice(0, 7) + "-01") {
    months.push(d.slice(0, 7));
  }
  return months;
}
