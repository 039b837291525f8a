import { describe, expect, it } from "vitest";
import {
  choiceDays,
  choiceProblem,
  hoursAndMinutes,
  reportSearchParams,
  shortTime,
  type ReportChoice,
} from "./report-query";

const base: ReportChoice = { report: "summary", preset: "today", from: "", to: "", vehicleIds: [] };
// 03:00 UTC on 1 March is still 28 February in Chicago.
const now = Date.parse("2026-03-01T03:00:00Z");

describe("the /reports range", () => {
  it("presets end on the workspace's today", () => {
    expect(choiceDays(base, now, "America/Chicago")).toEqual({ from: "2026-02-28", to: "2026-02-28" });
    expect(choiceDays(base, now, "UTC")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(choiceDays({ ...base, preset: "yesterday" }, now, "America/Chicago")).toEqual({
      from: "2026-02-27",
      to: "2026-02-27",
    });
    expect(choiceDays({ ...base, preset: "last7" }, now, "America/Chicago")).toEqual({
      from: "2026-02-22",
      to: "2026-02-28",
    });
    expect(choiceDays({ ...base, preset: "last30" }, now, "America/Chicago")).toEqual({
      from: "2026-01-30",
      to: "2026-02-28",
    });
  });

  it("a custom range of more than 92 days, or backwards, is refused before asking", () => {
    expect(choiceProblem({ ...base, preset: "custom", from: "2026-01-01", to: "2026-04-02" }, now, "UTC")).toBeNull();
    expect(choiceProblem({ ...base, preset: "custom", from: "2026-01-01", to: "2026-04-03" }, now, "UTC")).toMatch(
      /at most 92 days/,
    );
    expect(choiceProblem({ ...base, preset: "custom", from: "2026-02-02", to: "2026-02-01" }, now, "UTC")).toMatch(
      /after/,
    );
    expect(choiceProblem({ ...base, preset: "custom", from: "", to: "2026-02-01" }, now, "UTC")).toBe(
      "Choose both days",
    );
  });

  it("asks for the chosen vehicles, and CSV when downloading", () => {
    const params = reportSearchParams({ ...base, vehicleIds: ["a", "b"] }, now, "UTC", "csv");
    expect(params.toString()).toBe("from=2026-03-01&to=2026-03-01&vehicleId=a&vehicleId=b&format=csv");
  });

  it("shows the API's times on the workspace's clock, and durations briefly", () => {
    const chicago = { timeZone: "America/Chicago", readerTimeZone: "America/Chicago" };
    expect(shortTime("2026-10-13T08:05:12-05:00", { ...chicago, hourCycle: "h12" })).toBe("2026-10-13 8:05 AM");
    expect(shortTime("2026-10-13T13:05:12Z", { ...chicago, hourCycle: "h23" })).toBe("2026-10-13 08:05");
    expect(hoursAndMinutes(3 * 3600 + 5 * 60)).toBe("3h 05m");
    expect(hoursAndMinutes(720)).toBe("12m");
  });
});
