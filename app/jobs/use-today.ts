import { dayOf } from "../../shared/units/time-zone";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";

/** Today's date (YYYY-MM-DD) in the workspace's time zone, the day jobs are planned in; the browser's zone until it is known (offline). */
export function useTodayDate(): string {
  const zone = useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return dayOf(Date.now(), zone);
}
