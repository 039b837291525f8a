import { describe, expect, it } from "vitest";
import { addMonths, inMonth, monthsAround } from "./months";

describe("months in the workspace's time zone", () => {
  it("counts months across a year's end", () => {
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-11", -13)).toBe("2025-10");
  });

  it("cuts this month and the last at local midnight of their first days", () => {
    // 03:00 UTC on 1 December is still 30 November in Chicago (UTC-6).
    const now = Date.UTC(2026, 11, 1, 3);
    expect(monthsAround(now, "UTC").current).toEqual({
      month: "2026-12",
      start: Date.UTC(2026, 11, 1),
      end: Date.UTC(2027, 0, 1),
    });
    const { current, previous } = monthsAround(now, "America/Chicago");
    expect(current).toEqual({ month: "2026-11", start: Date.UTC(2026, 10, 1, 5), end: Date.UTC(2026, 11, 1, 6) });
    // October ends an hour later than it began, in local terms: daylight saving ended on 1 November.
    expect(previous).toEqual({ month: "2026-10", start: Date.UTC(2026, 9, 1, 5), end: Date.UTC(2026, 10, 1, 5) });
  });

  it("places a local date in its month", () => {
    expect([inMonth("2026-11-30", "2026-11"), inMonth("2026-12-01", "2026-11"), inMonth("2026-1", "2026-1")]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
