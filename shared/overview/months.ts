import { dayOf, startOfDay } from "../units/time-zone";

/**
 * Calendar months in the workspace's time zone, for the overview's "this month against last
 * month": a month is [start, end) in ms, local midnight of its first day to that of the next
 * month's, so a month with a daylight-saving change is an hour shorter or longer, as the reports'
 * days are (shared/units/time-zone.ts).
 */
export interface MonthSpan {
  /** `YYYY-MM` */
  month: string;
  start: number;
  end: number;
}

/** `YYYY-MM` plus `n` months (calendar arithmetic, no zone involved). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

export function monthSpan(month: string, timeZone: string): MonthSpan {
  return {
    month,
    start: startOfDay(`${month}-01`, timeZone),
    end: startOfDay(`${addMonths(month, 1)}-01`, timeZone),
  };
}

/** The month `now` falls in and the one before it, in `timeZone`. */
export function monthsAround(now: number, timeZone: string): { current: MonthSpan; previous: MonthSpan } {
  const month = dayOf(now, timeZone).slice(0, 7);
  return { current: monthSpan(month, timeZone), previous: monthSpan(addMonths(month, -1), timeZone) };
}

/** Whether a local date (`YYYY-MM-DD`) falls in a month (`YYYY-MM`). */
export const inMonth = (date: string, month: string) => date.startsWith(`${month}-`);
