import { describe, expect, it } from "vitest";
import { costCellText, costColumns } from "./cost-columns";
import type { CostRow } from "./cost-report";

const row: CostRow = {
  fuelCostCents: 123_456_7,
  fuelLitres: 3_785.411784,
  distanceMiles: 33_463.8,
  mpg: 25,
  serviceCostCents: 0,
  laborCostCents: 0,
  partsCostCents: 0,
  expenseCostCents: 0,
  expensesByKind: {},
  totalCostCents: 123_456_7,
  costPerMileCents: null,
};

const shown = (units: "us" | "metric") =>
  Object.fromEntries(costColumns(units).map((c) => [c.header, costCellText(c, row)]));

describe("the cost report's columns, as the table shows them", () => {
  it("reads dollars, gallons and miles with thousands separators, and — where there is no figure", () => {
    expect(shown("us")).toEqual({
      Fuel: "$12,345.67",
      "Fuel (gal)": "1,000.0",
      "Distance (mi)": "33,463.8",
      "Economy (mpg)": "25.0",
      Service: "$0.00",
      Labour: "$0.00",
      Parts: "$0.00",
      Expenses: "$0.00",
      Total: "$12,345.67",
      "Per mile": "—",
    });
  });

  it("reads litres, km and L/100 km in a metric workspace", () => {
    expect(shown("metric")).toMatchObject({
      "Fuel (L)": "3,785.4",
      "Distance (km)": "53,854.8",
      "Economy (L/100 km)": "9.4",
    });
  });
});
