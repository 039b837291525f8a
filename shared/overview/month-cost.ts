import type { CostReportQuery, CostReportResponse, CostRow } from "../costs/cost-report";
import { addMonths } from "./months";

/**
 * The overview's costs are the cost report's (docs/figures.md; docs/decisions/0078): this month so
 * far and last month whole, asked of `GET /api/reports/costs` per month, so each figure (cost total,
 * GPS distance, cost per mile) is the one the Costs tab shows for the same days, to the cent. The
 * device holds no per-day distance, so its own estimate (odometers of fill-ups) disagreed with the
 * report by several times; the last answer is kept on the device for a page opened offline.
 */
export interface MonthCost {
  month: string;
  fuelCents: number;
  /** Service entries' cost, labour and parts of work orders included. */
  serviceCents: number;
  /** Within service: what completed work orders recorded as labour, and as parts. */
  laborCents: number;
  partsCents: number;
  expenseCents: number;
  totalCents: number;
  distanceMiles: number;
  /** null when nothing was driven or nothing spent (shown "—") */
  costPerMileCents: number | null;
  /** The month's fuel economy, the cost report's (null: no clean full-to-full stretch closed in it). */
  mpg: number | null;
}

export interface MonthCosts {
  current: MonthCost;
  previous: MonthCost;
}

/**
 * The cost report's query for the overview on `today` (the workspace's `YYYY-MM-DD`): last month's
 * first day to today, by month, every vehicle, the days the Costs tab's "Last month" and "This
 * month" presets cover.
 */
export function overviewCostQuery(today: string): Pick<CostReportQuery, "from" | "to" | "by"> {
  return { from: `${addMonths(today.slice(0, 7), -1)}-01`, to: today, by: "month" };
}

const monthCostOf = (row: CostRow): MonthCost => ({
  month: row.month ?? "",
  fuelCents: row.fuelCostCents,
  serviceCents: row.serviceCostCents,
  laborCents: row.laborCostCents,
  partsCents: row.partsCostCents,
  expenseCents: row.expenseCostCents,
  totalCents: row.totalCostCents,
  distanceMiles: row.distanceMiles,
  costPerMileCents: row.costPerMileCents,
  mpg: row.mpg,
});

/** This month and last from the report's answer to `overviewCostQuery(today)`; null for another month's answer. */
export function monthCostsOf(answer: Pick<CostReportResponse, "rows">, today: string): MonthCosts | null {
  const [previous, current] = answer.rows;
  if (!previous || !current || current.month !== today.slice(0, 7)) return null;
  return { current: monthCostOf(current), previous: monthCostOf(previous) };
}

/** How much `now` differs from `before`, as a fraction of `before` (0.1 = 10 % more); null without both. */
export function relativeChange(now: number | null, before: number | null): number | null {
  if (now === null || before === null || before === 0) return null;
  return (now - before) / before;
}
