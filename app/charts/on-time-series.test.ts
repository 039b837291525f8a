import { describe, expect, it } from "vitest";
import type { JobsReportDay } from "../../shared/reports/reports";
import { onTimeBars } from "./on-time-series";
import { barSummary, trendSummary } from "./series";

const day = (date: string, fields: Partial<JobsReportDay>): JobsReportDay => ({
  day: date,
  jobs: 0,
  completed: 0,
  onTime: 0,
  late: 0,
  skipped: 0,
  averageDwellMinutes: null,
  ...fields,
});

describe("the on-time chart over the report's days", () => {
  it("stacks on time, late and skipped per day, and its words leave out the days with none", () => {
    const days = [
      day("2026-11-01", {}),
      day("2026-11-02", { jobs: 4, onTime: 1, late: 1, skipped: 1 }),
      day("2026-11-03", { jobs: 2, onTime: 2 }),
    ];
    const bars = onTimeBars(days);
    expect(bars.labels).toEqual(["2026-11-01", "2026-11-02", "2026-11-03"]);
    expect(bars.sets.map((s) => [s.label, s.values])).toEqual([
      ["On time", [0, 1, 2]],
      ["Late", [0, 1, 0]],
      ["Skipped", [0, 1, 0]],
    ]);
    expect(barSummary("Jobs on time by day", bars, String)).toBe(
      "Jobs on time by day: 2026-11-02 3 (on time 1, late 1, skipped 1); 2026-11-03 2 (on time 2). Total 5 (on time 3, late 1, skipped 1).",
    );
  });

  it("says a trend's missing points as none, not zero", () => {
    const words = trendSummary(
      "Cost per mile",
      { labels: ["2026-09", "2026-10"], label: "Cost per mile", colour: "#000", values: [0.07, null] },
      (v) => `$${v.toFixed(2)}/mi`,
    );
    expect(words).toBe("Cost per mile: 2026-09 $0.07/mi; 2026-10 none.");
  });
});
