import type { CostRow } from "../../shared/costs/cost-report";
import type { MonthCost } from "../../shared/overview/month-cost";
import { mpgToLitresPer100Km, type WorkspaceUnits } from "../../shared/units/units";
import { perDistanceCents } from "../units/units-text";
import { KIND_COLOURS, TREND_COLOURS } from "./palette";
import type { BarSeries, TrendSeries } from "./series";

/**
 * The cost kinds a cost chart stacks, in order, each with its colour (palette.ts). A list, not code:
 * a new kind is a line here and a field in the two `costPoint` readers below, which the type then
 * requires. Labour and parts are what work orders recorded within service (issue 55), so the
 * service bar is the rest of it ("Other service") and a bar still adds up to the row's total.
 */
export const COST_KINDS = [
  { key: "fuel", label: "Fuel" },
  { key: "labour", label: "Labour" },
  { key: "parts", label: "Parts" },
  { key: "service", label: "Other service" },
  { key: "expenses", label: "Expenses" },
] as const satisfies readonly { key: keyof typeof KIND_COLOURS; label: string }[];
export type CostKind = (typeof COST_KINDS)[number]["key"];

/** One bar of a cost chart: a month or a vehicle, as the page's table row says it. */
export interface CostPoint {
  label: string;
  /** cents per kind; they add up to the row's total */
  cents: Record<CostKind, number>;
  costPerMileCents: number | null;
  mpg: number | null;
}

/** A row of the cost report (GET /api/reports/costs), by month or by vehicle, as its table labels it. */
export const costPointOfRow = (row: CostRow): CostPoint => ({
  label: row.vehicleName ?? row.month ?? "",
  cents: {
    fuel: row.fuelCostCents,
    labour: row.laborCostCents,
    parts: row.partsCostCents,
    service: row.serviceCostCents - row.laborCostCents - row.partsCostCents,
    expenses: row.expenseCostCents,
  },
  costPerMileCents: row.costPerMileCents,
  mpg: row.mpg,
});

/** A month of the overview's Costs card (shared/overview/month-cost.ts). */
export const costPointOfMonth = (month: MonthCost): CostPoint => ({
  label: month.month,
  cents: {
    fuel: month.fuelCents,
    labour: month.laborCents,
    parts: month.partsCents,
    service: month.serviceCents - month.laborCents - month.partsCents,
    expenses: month.expenseCents,
  },
  costPerMileCents: month.costPerMileCents,
  // A month kept on the device by an older build has no economy: a gap, not a zero.
  mpg: month.mpg ?? null,
});

/** Cost by kind, one stacked bar per point, in dollars. */
export const costBars = (points: readonly CostPoint[]): BarSeries => ({
  labels: points.map((p) => p.label),
  sets: COST_KINDS.map(({ key, label }) => ({
    key,
    label,
    colour: KIND_COLOURS[key],
    values: points.map((p) => p.cents[key] / 100),
  })),
});

/** Cost per mile, or per km in a metric workspace, in dollars: the table's "Per mile"/"Per km" column. */
export const costPerDistanceTrend = (points: readonly CostPoint[], units: WorkspaceUnits): TrendSeries => ({
  labels: points.map((p) => p.label),
  label: units === "metric" ? "Cost per km" : "Cost per mile",
  colour: TREND_COLOURS.costPerDistance,
  values: points.map((p) =>
    p.costPerMileCents === null ? null : Math.round(perDistanceCents(p.costPerMileCents, units)) / 100,
  ),
});

/** Fuel economy in mpg, or in L/100 km in a metric workspace: the table's "Economy" column. */
export const economyTrend = (points: readonly CostPoint[], units: WorkspaceUnits): TrendSeries => ({
  labels: points.map((p) => p.label),
  label: units === "metric" ? "Economy (L/100 km)" : "Economy (mpg)",
  colour: TREND_COLOURS.economy,
  values: points.map((p) =>
    p.mpg === null ? null : Math.round((units === "metric" ? mpgToLitresPer100Km(p.mpg) : p.mpg) * 10) / 10,
  ),
});
