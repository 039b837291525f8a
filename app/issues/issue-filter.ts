import { isActiveStatus, type Issue, type IssuePriority, type IssueStatus } from "../../shared/maintenance/issues";

/** The Issues list's filters, as the URL's search parameters hold them (a filtered list can be shared). */
export interface IssueFilter {
  /** "active": open and in progress (the default); "all": every status. */
  status: IssueStatus | "active" | "all";
  priority: IssuePriority | "";
  vehicleId: string;
  /** A user id, "me", "none" (unassigned) or "" (anyone). */
  assignee: string;
}

export function readIssueFilter(params: URLSearchParams): IssueFilter {
  return {
    status: (params.get("status") as IssueFilter["status"]) || "active",
    priority: (params.get("priority") as IssuePriority) || "",
    vehicleId: params.get("vehicle") ?? "",
    assignee: params.get("assignee") ?? "",
  };
}

/** Whether the status filter reaches beyond what is synced (older resolved and closed issues are on the server only). */
export const needsServer = (f: IssueFilter) => f.status === "resolved" || f.status === "closed" || f.status === "all";

export function matchesIssue(issue: Issue, f: IssueFilter, viewerId: string | null): boolean {
  if (f.status === "active" ? !isActiveStatus(issue.status) : f.status !== "all" && issue.status !== f.status)
    return false;
  if (f.priority && issue.priority !== f.priority) return false;
  if (f.vehicleId && issue.vehicleId !== f.vehicleId) return false;
  if (f.assignee === "none") return issue.assigneeUserId === null;
  if (f.assignee === "me") return issue.assigneeUserId !== null && issue.assigneeUserId === viewerId;
  return !f.assignee || issue.assigneeUserId === f.assignee;
}
