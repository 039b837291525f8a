import { describe, expect, it } from "vitest";
import type { CostRow } from "../costs/cost-report";
import { monthCostsOf, overviewCostQuery, relativeChange } from "./month-cost";

const row = (month: string, totalCostCents: number, distanceMiles: number, mpg: number | null = null): CostRow => ({
  month,
  fuelCostCents: totalCostCents,
  fuelLitres: 0,
  distanceMiles,
  mpg,
  serviceCostCents: 0,
  laborCostCents: 0,
  partsCostCents: 0,
  expenseCostCents: 0,
  expensesByKind: {},
  totalCostCents,
  costPerMileCents: distanceMiles ? totalCostCents / distanceMiles : null,
});

describe("the overview's costs, as the cost report answers them", () => {
  it("asks for last month's first day to today, by month: the Costs tab's two month presets", () => {
    expect(overviewCostQuery("2026-11-29")).toEqual({ from: "2026-10-01", to: "2026-11-29", by: "month" });
    expect(overviewCostQuery("2027-01-02")).toEqual({ from: "2026-12-01", to: "2027-01-02", by: "month" });
  });

  it("reads this month and last from the answer's two rows, unchanged", () => {
    const costs = monthCostsOf({ rows: [row("2026-10", 12_000, 300), row("2026-11", 15_000, 50, 21.4)] }, "2026-11-29");
    expect(costs?.current).toEqual({
      month: "2026-11",
      fuelCents: 15_000,
      serviceCents: 0,
      laborCents: 0,
      partsCents: 0,
      expenseCents: 0,
      totalCents: 15_000,
      distanceMiles: 50,
      costPerMileCents: 300,
      mpg: 21.4,
    });
    expect(costs?.previous.costPerMileCents).toBe(40);
  });

  it("does not pass an answer kept from another month off as this month's", () => {
    expect(monthCostsOf({ rows: [row("2026-09", 1, 1), row("2026-10", 1, 1)] }, "2026-11-01")).toBeNull();
    expect(monthCostsOf({ rows: [] }, "2026-11-01")).toBeNull();
  });

  it("compares with last month as a fraction, and not at all without both", () => {
    expect(relativeChange(300, 40)).toBe(6.5);
    expect(relativeChange(300, null)).toBeNull();
    expect(relativeChange(300, 0)).toBeNull();
  });
});
