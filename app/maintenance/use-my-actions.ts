import { useCallback } from "react";
import type { Issue } from "../../shared/issues";
import type { ServiceSchedule } from "../../shared/service";
import { dayOf, startOfDay } from "../../shared/time-zone";
import type { Vehicle } from "../../shared/vehicle";
import { useWorkspaceTimeZone } from "../reports/use-workspace-time-zone";
import { useSession } from "../session/session";
import { useIssues } from "../store/issues";
import { useDueService, useUninspectedToday } from "../store/maintenance";
import { useUnreadCount } from "../store/places-alerts";

/**
 * What is the signed-in member's to do (issue 32), computed from the synced store so the page and
 * the count beside "My actions" work offline and change the moment a pull brings a change (an
 * issue assigned in another session), without polling: issues assigned to them and not closed,
 * service due soon or overdue, vehicles that drove today without an inspection, unread alerts.
 * GET /api/my-actions answers the same for integrators (docs/decisions/0033).
 */
export interface MyActions {
  issues: Issue[];
  service: ServiceSchedule[];
  inspections: Vehicle[];
  unreadAlerts: number;
}

/** When today began in the workspace's time zone (the browser's until it is known). */
export function useTodayStart(): number {
  const zone = useWorkspaceTimeZone() ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const now = Date.now();
  return startOfDay(dayOf(now, zone), zone);
}

export function useMyActions(): MyActions {
  const userId = useSession().viewer?.id;
  const all = useIssues();
  const mine = useCallback((i: Issue) => i.assigneeUserId === userId && i.status !== "closed", [userId]);
  const service = useDueService();
  const inspections = useUninspectedToday(useTodayStart());
  const unreadAlerts = useUnreadCount();
  return { issues: userId ? all.filter(mine) : [], service, inspections, unreadAlerts };
}

export const actionCount = (a: MyActions) => a.issues.length + a.service.length + a.inspections.length + a.unreadAlerts;

/** The count beside "My actions" in the navigation. */
export function useActionCount(): number {
  return actionCount(useMyActions());
}
