import { describe, expect, it } from "vitest";
import { monthCost, relativeChange, type CostInputs } from "./month-cost";
import { monthSpan } from "./months";

const november = monthSpan("2026-11", "UTC");
const day = (d: number, hour = 12) => Date.UTC(2026, 10, d, hour);
const none: CostInputs = { fuel: [], service: [], expenses: [], odometersNow: [] };

describe("a month's cost and cost per mile", () => {
  it("adds fuel, service and expenses of the month only, and divides by the miles driven in it", () => {
    const inputs: CostInputs = {
      fuel: [
        { vehicleId: "a", at: day(1), costCents: 5_000, odometerMiles: 1_000 },
        { vehicleId: "a", at: day(15), costCents: 6_000, odometerMiles: 1_300 },
        { vehicleId: "a", at: Date.UTC(2026, 9, 31, 12), costCents: 9_999, odometerMiles: null },
        { vehicleId: "b", at: day(10), costCents: null, odometerMiles: null },
      ],
      service: [
        { vehicleId: "a", date: "2026-11-20", costCents: 12_000 },
        { vehicleId: "b", date: "2026-12-01", costCents: 50_000 },
        { vehicleId: "b", date: "2026-11-02", costCents: null },
      ],
      expenses: [{ vehicleId: "b", date: "2026-11-30", costCents: 3_000 }],
      odometersNow: [{ vehicleId: "a", at: day(29), miles: 1_700 }],
    };
    expect(monthCost(inputs, november)).toEqual({
      month: "2026-11",
      fuelCents: 11_000,
      serviceCents: 12_000,
      expenseCents: 3_000,
      totalCents: 26_000,
      distanceMiles: 700,
      costPerMileCents: 26_000 / 700,
    });
  });

  it("ends a month under way at now: later fill-ups and miles are not yet its", () => {
    const inputs: CostInputs = {
      ...none,
      fuel: [
        { vehicleId: "a", at: day(1, 0), costCents: 4_000, odometerMiles: 2_000 },
        { vehicleId: "a", at: day(21, 0), costCents: 4_000, odometerMiles: 2_400 },
      ],
    };
    const soFar = monthCost(inputs, november, day(11, 0));
    expect(soFar).toMatchObject({ fuelCents: 4_000, distanceMiles: 200, costPerMileCents: 20 });
  });

  it("has no cost per mile when no mile can be told", () => {
    const inputs: CostInputs = { ...none, service: [{ vehicleId: "a", date: "2026-11-03", costCents: 8_000 }] };
    expect(monthCost(inputs, november)).toMatchObject({ totalCents: 8_000, distanceMiles: 0, costPerMileCents: null });
  });
});

describe("against last month", () => {
  it("is the change as a share of last month's figure, and nothing without both", () => {
    expect(relativeChange(55, 50)).toBeCloseTo(0.1);
    expect(relativeChange(40, 50)).toBeCloseTo(-0.2);
    expect([relativeChange(null, 50), relativeChange(50, null), relativeChange(50, 0)]).toEqual([null, null, null]);
  });
});
