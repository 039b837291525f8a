import { useMemo } from "react";
import { dayOf } from "../../shared/units/time-zone";
import { openIssuesByPriority } from "../../shared/overview/counts";
import { useToday } from "../maintenance/use-my-actions";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";
import { useRenewals } from "../store/costs";
import { useIssues } from "../store/issues";
import { useDueService, useUninspectedToday } from "../store/maintenance";
import { useFleetStatusCounts } from "../store/overview";
import { useUnreadCount } from "../store/places-alerts";
import { useKeptCostReport } from "../reports/use-kept-cost-report";
import { monthCostsOf, overviewCostQuery } from "../../shared/overview/month-cost";

/** The workspace's time zone (the browser's until it is known). */
const useZone = () => useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Renewals overdue and due soon on `today` (the workspace's `YYYY-MM-DD`), of vehicles still in the fleet. */
function useRenewalsDue(today: string) {
  const renewals = useRenewals(today);
  return useMemo(
    () => ({
      overdue: renewals.filter((r) => r.status === "overdue").length,
      dueSoon: renewals.filter((r) => r.status === "due_soon").length,
    }),
    [renewals],
  );
}

/**
 * Every figure of the overview (issue 42, docs/decisions/0051), each from the synced store by the
 * rule of the page it links to, so the page opens offline and agrees with those pages: vehicles by
 * the map's colours, open issues as the Issues list counts them, service due as My actions lists
 * it, renewals by their one rule (shared/costs/renewals.ts) on the workspace's day, today's missing inspections as the Inspections page does, unread alerts as the Inbox's count; costs as the cost report answers them.
 */
export function useOverview() {
  const vehicles = useFleetStatusCounts();
  const allIssues = useIssues();
  const issues = useMemo(() => openIssuesByPriority(allIssues), [allIssues]);
  const due = useDueService();
  const service = useMemo(
    () => ({
      overdue: due.filter((s) => s.status === "overdue").length,
      dueSoon: due.filter((s) => s.status === "due_soon").length,
    }),
    [due],
  );
  const uninspected = useUninspectedToday(useToday()).length;
  const today = dayOf(Date.now(), useZone());
  const renewals = useRenewalsDue(today);
  const unreadAlerts = useUnreadCount();
  // The cost report's own figures for this month and last (docs/figures.md), not a second estimate.
  const report = useKeptCostReport("overview-costs", overviewCostQuery(today));
  const costs = useMemo(() => (report ? monthCostsOf(report, today) : null), [report, today]);
  return { vehicles, issues, service, renewals, uninspected, unreadAlerts, costs };
}

export type Overview = ReturnType<typeof useOverview>;
