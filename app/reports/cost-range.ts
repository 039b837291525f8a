import { costRangeProblem } from "../../shared/costs/cost-report";
import { addDays } from "../../shared/units/time-zone";

/** The Costs tab's ranges: costs are read by the month, so its presets are months, today included. */
export type CostPreset = "thisMonth" | "lastMonth" | "last3Months" | "last12Months" | "custom";

export const COST_PRESET_LABELS: Record<CostPreset, string> = {
  thisMonth: "This month",
  lastMonth: "Last month",
  last3Months: "Last 3 months",
  last12Months: "Last 12 months",
  custom: "Custom range",
};

const firstOf = (day: string) => `${day.slice(0, 7)}-01`;
/** The first day of the month `n` months before `day`'s. */
const monthsBefore = (day: string, n: number) => {
  const [y, m] = day.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}-01`;
};

/** The days a preset covers, ending `today` (the workspace's), or the custom days as chosen. */
export function costDays(preset: CostPreset, today: string, custom: { from: string; to: string }) {
  switch (preset) {
    case "thisMonth":
      return { from: firstOf(today), to: today };
    case "lastMonth":
      return { from: monthsBefore(today, 1), to: addDays(firstOf(today), -1) };
    case "last3Months":
      return { from: monthsBefore(today, 2), to: today };
    case "last12Months":
      // eleven whole months before this one and this month so far: at most 366 days
      return { from: monthsBefore(today, 11), to: today };
    case "custom":
      return custom;
  }
}

/** Why the days cannot be asked for, or null. */
export function costDaysProblem({ from, to }: { from: string; to: string }): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return "Choose both days";
  return costRangeProblem(from, to);
}
