import { dayOf } from "../../shared/units/time-zone";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";

/** Today (YYYY-MM-DD) in the workspace's time zone, the browser's until it is known: the day renewals are judged on. */
export function useWorkspaceToday(): string {
  const zone = useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return dayOf(Date.now(), zone);
}
