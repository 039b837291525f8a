import { describe, expect, it } from "vitest";
import { costDays, costDaysProblem } from "./cost-range";

describe("the Costs tab's ranges", () => {
  const custom = { from: "", to: "" };
  it("are whole months up to the workspace's today, across a year's end", () => {
    expect(costDays("thisMonth", "2026-01-14", custom)).toEqual({ from: "2026-01-01", to: "2026-01-14" });
    expect(costDays("lastMonth", "2026-01-14", custom)).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(costDays("lastMonth", "2026-03-31", custom)).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(costDays("last3Months", "2026-02-10", custom)).toEqual({ from: "2025-12-01", to: "2026-02-10" });
    expect(costDays("last12Months", "2026-02-10", custom)).toEqual({ from: "2025-03-01", to: "2026-02-10" });
  });

  it("the longest preset is one the API accepts; a custom range is checked as the API checks it", () => {
    expect(costDaysProblem(costDays("last12Months", "2028-12-31", custom))).toBeNull();
    expect(costDaysProblem({ from: "2026-01-01", to: "" })).toBe("Choose both days");
    expect(costDaysProblem({ from: "2026-02-01", to: "2026-01-01" })).toMatch(/after/);
    expect(costDaysProblem({ from: "2025-01-01", to: "2026-01-31" })).toMatch(/at most 366 days/);
  });
});
