import { rangeProblem } from "../../shared/reports/reports";
import { dayOf, endOfDay, startOfDay } from "../../shared/units/time-zone";
import { badRequest } from "../lib/errors";

/** A report's range: whole local days, from the first's midnight to the end of the last. */
export interface ReportRange {
  fromDay: string;
  toDay: string;
  /** ms: [start, end) */
  start: number;
  end: number;
  timeZone: string;
}

/** `from`/`to` as days of the workspace (an instant stands for its local day); 400 when out of bounds. */
export function reportRange(from: string, to: string, timeZone: string): ReportRange {
  const asDay = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : dayOf(Date.parse(v), timeZone));
  const fromDay = asDay(from);
  const toDay = asDay(to);
  const problem = rangeProblem(fromDay, toDay);
  if (problem) throw badRequest(problem, { [problem.startsWith("`from`") ? "from" : "to"]: [problem] });
  return { fromDay, toDay, start: startOfDay(fromDay, timeZone), end: endOfDay(toDay, timeZone), timeZone };
}
