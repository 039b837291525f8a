import { useMemo } from "react";
import { dayAround, type DaySpan } from "../../shared/maintenance/drove-without-inspection";
import type { Issue } from "../../shared/maintenance/issues";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";
import { useSession } from "../session/session";
import { useIssues } from "../store/issues";
import { useDueService, useUninspectedToday } from "../store/maintenance";
import { useUnreadCount } from "../store/places-alerts";
import { useRenewals, type RenewalRow } from "../store/costs";
import { useWorkspaceToday } from "../costs/use-workspace-today";

/**
 * What is the signed-in member's to do (issue 32), computed from the synced store so the page and
 * the count beside "My actions" work offline and change the moment a pull brings a change (an
 * issue assigned in another session), without polling: issues assigned to them and not closed,
 * service due soon or overdue, vehicles that drove today without an inspection, unread alerts,
 * and renewals due soon or overdue (issue 42).
 * GET /api/my-actions answers the same for integrators (docs/decisions/0033).
 */
export interface MyActions {
  issues: Issue[];
  service: ServiceSchedule[];
  inspections: Vehicle[];
  unreadAlerts: number;
  /** Due soon or overdue today (the workspace's day), overdue first. */
  renewals: RenewalRow[];
}

/** Today in the workspace's time zone (the browser's until it is known), midnight to midnight. */
export function useToday(): DaySpan {
  const zone = useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { start, end } = dayAround(Date.now(), zone);
  // The same object while the day lasts, so the lists derived from it are not worked out again.
  return useMemo(() => ({ start, end }), [start, end]);
}

export function useMyActions(): MyActions {
  const userId = useSession().viewer?.id;
  const all = useIssues();
  const issues = useMemo(
    () => (userId ? all.filter((i) => i.assigneeUserId === userId && i.status !== "closed") : []),
    [all, userId],
  );
  const service = useDueService();
  const inspections = useUninspectedToday(useToday());
  const unreadAlerts = useUnreadCount();
  const allRenewals = useRenewals(useWorkspaceToday());
  const renewals = useMemo(
    () =>
      allRenewals
        .filter((r) => r.status !== "ok")
        .sort((a, b) => Number(b.status === "overdue") - Number(a.status === "overdue")),
    [allRenewals],
  );
  return { issues, service, inspections, unreadAlerts, renewals };
}

export const actionCount = (a: MyActions) =>
  a.issues.length + a.service.length + a.inspections.length + a.unreadAlerts + a.renewals.length;

/** The count beside "My actions" in the navigation. */
export function useActionCount(): number {
  return actionCount(useMyActions());
}
