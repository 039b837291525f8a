import { dateTimeText, type WorkspaceClock } from "../../shared/units/clock";
import { rangePresets, rangeProblem, type RangePreset, type ReportName } from "../../shared/reports/reports";
import { dayOf } from "../../shared/units/time-zone";

/** What /reports asks for: a report, a range (a preset or custom days) and the vehicles. */
export interface ReportChoice {
  report: ReportName;
  preset: RangePreset | "custom";
  /** custom range, YYYY-MM-DD */
  from: string;
  to: string;
  /** empty: all vehicles */
  vehicleIds: string[];
}

export const PRESET_LABELS: Record<RangePreset | "custom", string> = {
  today: "Today",
  yesterday: "Yesterday",
  last7: "Last 7 days",
  last30: "Last 30 days",
  custom: "Custom range",
};

/** The days a choice covers; "today" is the workspace's today. */
export function choiceDays(choice: ReportChoice, now: number, timeZone: string): { from: string; to: string } {
  if (choice.preset === "custom") return { from: choice.from, to: choice.to };
  return rangePresets[choice.preset](dayOf(now, timeZone));
}

/** Why the choice cannot be asked for (a custom range out of bounds), or null. */
export function choiceProblem(choice: ReportChoice, now: number, timeZone: string): string | null {
  const { from, to } = choiceDays(choice, now, timeZone);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to)) return "Choose both days";
  return rangeProblem(from, to);
}

/** The API's query string for the choice (GET /api/reports/{report}?...). */
export function reportSearchParams(
  choice: ReportChoice,
  now: number,
  timeZone: string,
  format: "json" | "csv" = "json",
): URLSearchParams {
  const { from, to } = choiceDays(choice, now, timeZone);
  const params = new URLSearchParams({ from, to });
  for (const id of choice.vehicleIds) params.append("vehicleId", id);
  if (format === "csv") params.set("format", "csv");
  return params;
}

/** "2026-10-13T08:05:12-05:00" as "2026-10-13 8:05 AM": on the workspace's clock, in its hour cycle. */
export function shortTime(iso: string, clock: WorkspaceClock): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateTimeText(time, clock);
}

/** Seconds as "3h 05m" (or "12m"). */
export function hoursAndMinutes(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h}h ${String(minutes % 60).padStart(2, "0")}m` : `${minutes}m`;
}
