import { Link } from "@remix-run/react";
import { useMemo } from "react";
import { isActiveStatus, priorityLabels } from "../../shared/maintenance/issues";
import { useSession } from "../session/session";
import { useVehicles } from "../store";
import { useIssues } from "../store/issues";
import { issueNumber } from "./issue-list";

/**
 * The Inbox's "Assigned to you": open and in-progress issues assigned to the signed-in member,
 * most recently changed first (an assignment is a change), from the synced store, so it is there
 * offline too. The assignee also gets an e-mail (worker/maintenance/issue-notifications.ts).
 */
export function AssignedToMe() {
  const viewerId = useSession().viewer?.id;
  const issues = useIssues();
  const vehicles = useVehicles();
  const mine = useMemo(
    () =>
      issues
        .filter((i) => viewerId && i.assigneeUserId === viewerId && isActiveStatus(i.status))
        .sort((a, b) => b.updatedAt - a.updatedAt),
    [issues, viewerId],
  );
  const vehicleNames = useMemo(() => new Map(vehicles.map((v) => [v.id, v.name])), [vehicles]);
  if (mine.length === 0) return null;
  return (
    <div className="inbox-day" data-testid="assigned-to-me">
      <h2>Issues assigned to you</h2>
      <ul className="inbox-list">
        {mine.map((issue) => (
          <li key={issue.id}>
            <Link to={`/issues/${issue.id}`} className="inbox-row unread">
              <span className="inbox-time">{issueNumber(issue)}</span>
              <span className="inbox-vehicle">{vehicleNames.get(issue.vehicleId) ?? "A removed vehicle"}</span>
              <span className="inbox-what">
                {issue.title} · {priorityLabels[issue.priority]}
                {issue.dueDate ? ` · due ${issue.dueDate}` : ""}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
