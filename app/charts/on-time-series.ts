import type { JobsReportDay } from "../../shared/reports/reports";
import { ON_TIME_COLOURS } from "./palette";
import type { BarSeries } from "./series";

/**
 * Jobs on time, late and skipped per day, one stacked bar a day: the on-time report's `days`, counted
 * by the same rule as its rows (domain/jobs/on-time.ts). A job neither reached nor skipped (still
 * to do) is in no layer, as in the table.
 */
export const onTimeBars = (days: readonly JobsReportDay[]): BarSeries => ({
  labels: days.map((d) => d.day),
  sets: [
    { key: "onTime", label: "On time", colour: ON_TIME_COLOURS.onTime, values: days.map((d) => d.onTime) },
    { key: "late", label: "Late", colour: ON_TIME_COLOURS.late, values: days.map((d) => d.late) },
    { key: "skipped", label: "Skipped", colour: ON_TIME_COLOURS.skipped, values: days.map((d) => d.skipped) },
  ],
});
