import { describe, expect, it } from "vitest";
import type { CostRow } from "../../shared/costs/cost-report";
import type { MonthCost } from "../../shared/overview/month-cost";
import { barSummary, barTotals } from "./series";
import { dollarsText } from "./chart-format";
import {
  COST_KINDS,
  costBars,
  costPerDistanceTrend,
  costPointOfMonth,
  costPointOfRow,
  economyTrend,
} from "./cost-series";
import { KIND_COLOURS } from "./palette";

const row = (fields: Partial<CostRow>): CostRow => ({
  fuelCostCents: 0,
  fuelLitres: 0,
  distanceMiles: 0,
  mpg: null,
  serviceCostCents: 0,
  laborCostCents: 0,
  partsCostCents: 0,
  expenseCostCents: 0,
  expensesByKind: {},
  totalCostCents: 0,
  costPerMileCents: null,
  ...fields,
});

// Two months of the cost report as GET /api/reports/costs?by=month answers them.
const september = row({
  month: "2026-09",
  fuelCostCents: 12_345,
  serviceCostCents: 8_000,
  expenseCostCents: 1_255,
  totalCostCents: 21_600,
  costPerMileCents: 7.4,
  mpg: 21.37,
});
const october = row({ month: "2026-10", fuelCostCents: 7_250, totalCostCents: 7_250 });

describe("cost charts over the cost report's rows", () => {
  it("stacks every kind of each row, and each bar adds up to the row's total to the cent", () => {
    const bars = costBars([september, october].map(costPointOfRow));
    expect(bars.labels).toEqual(["2026-09", "2026-10"]);
    expect(bars.sets.map((s) => s.key)).toEqual(COST_KINDS.map((k) => k.key));
    expect(bars.sets.find((s) => s.key === "service")?.values).toEqual([80, 0]);
    expect(barTotals(bars).map((d) => Math.round(d * 100))).toEqual([21_600, 7_250]);
  });

  it("shows work orders' labour and parts apart from the rest of service, the bar still the row's total", () => {
    // A $500 work order ($300 labour, $150 parts, $50 tax) and a $100 oil change of its own.
    const shop = row({
      month: "2026-11",
      serviceCostCents: 60_000,
      laborCostCents: 30_000,
      partsCostCents: 15_000,
      totalCostCents: 60_000,
    });
    const bars = costBars([costPointOfRow(shop)]);
    const of = (key: string) => bars.sets.find((s) => s.key === key)?.values[0];
    expect([of("labour"), of("parts"), of("service")]).toEqual([300, 150, 150]);
    expect(bars.sets.find((s) => s.key === "service")?.label).toBe("Other service");
    expect(barTotals(bars).map((d) => Math.round(d * 100))).toEqual([60_000]);
  });

  it("gives a kind the same colour on every chart, and no two kinds one colour", () => {
    const fromReport = costBars([costPointOfRow(september)]);
    const month: MonthCost = {
      month: "2026-10",
      fuelCents: 100,
      serviceCents: 0,
      laborCents: 0,
      partsCents: 0,
      expenseCents: 0,
      totalCents: 100,
      distanceMiles: 0,
      costPerMileCents: null,
      mpg: null,
    };
    const fromOverview = costBars([costPointOfMonth(month)]);
    expect(fromOverview.sets.map((s) => s.colour)).toEqual(fromReport.sets.map((s) => s.colour));
    expect(fromReport.sets.find((s) => s.key === "fuel")?.colour).toBe(KIND_COLOURS.fuel);
    expect(new Set(Object.values(KIND_COLOURS)).size).toBe(Object.keys(KIND_COLOURS).length);
  });

  it("labels a vehicle's row by its name, as the table does", () => {
    const bars = costBars([costPointOfRow(row({ vehicleId: "v1", vehicleName: "Truck 7", fuelCostCents: 5 }))]);
    expect(bars.labels).toEqual(["Truck 7"]);
  });

  it("draws cost per mile or per km as the table's column rounds it, a gap where there is no distance", () => {
    const points = [september, october].map(costPointOfRow);
    expect(costPerDistanceTrend(points, "us").values).toEqual([0.07, null]);
    // 7.4 cents a mile is 4.6 cents a km: the table shows $0.05/km.
    expect(costPerDistanceTrend(points, "metric")).toMatchObject({ label: "Cost per km", values: [0.05, null] });
  });

  it("draws economy in mpg or L/100 km to the table's tenth, a gap where no clean stretch was measured", () => {
    const points = [september, october].map(costPointOfRow);
    expect(economyTrend(points, "us").values).toEqual([21.4, null]);
    expect(economyTrend(points, "metric").values).toEqual([11, null]);
  });

  it("says the chart in words: each month's total and kinds, and the total the table's footer shows", () => {
    const summary = barSummary("Cost by month", costBars([september, october].map(costPointOfRow)), dollarsText);
    expect(summary).toBe(
      "Cost by month: 2026-09 $216.00 (fuel $123.45, other service $80.00, expenses $12.55); 2026-10 $72.50 (fuel $72.50)." +
        " Total $288.50 (fuel $195.95, other service $80.00, expenses $12.55).",
    );
  });
});
