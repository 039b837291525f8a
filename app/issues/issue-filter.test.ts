import { describe, expect, it } from "vitest";
import { issueTable } from "../../shared/maintenance/issue-fields";
import type { Issue } from "../../shared/maintenance/issues";
import { matchesIssue, readIssueFilter } from "./issue-filter";

const issue = (fields: Partial<Issue>): Issue => ({
  id: "i",
  number: 1,
  vehicleId: "v1",
  ...issueTable.given({ title: "t", priority: "medium" }),
  description: null,
  status: "open",
  reportedByUserId: null,
  assigneeUserId: null,
  photoIds: [],
  sourceInspectionId: null,
  sourceAlertId: null,
  createdAt: 0,
  updatedAt: 0,
  ...fields,
});

describe("issue filters", () => {
  it("shows open and in-progress issues by default", () => {
    const f = readIssueFilter(new URLSearchParams());
    expect(matchesIssue(issue({ status: "open" }), f, null)).toBe(true);
    expect(matchesIssue(issue({ status: "in_progress" }), f, null)).toBe(true);
    expect(matchesIssue(issue({ status: "closed" }), f, null)).toBe(false);
    expect(matchesIssue(issue({ status: "closed" }), readIssueFilter(new URLSearchParams("status=all")), null)).toBe(
      true,
    );
  });
  it("filters by priority, vehicle and assignee (me, none or a member)", () => {
    const f = (q: string) => readIssueFilter(new URLSearchParams(q));
    expect(matchesIssue(issue({ priority: "high" }), f("priority=high"), null)).toBe(true);
    expect(matchesIssue(issue({ priority: "low" }), f("priority=high"), null)).toBe(false);
    expect(matchesIssue(issue({}), f("vehicle=v2"), null)).toBe(false);
    expect(matchesIssue(issue({ assigneeUserId: "u1" }), f("assignee=me"), "u1")).toBe(true);
    expect(matchesIssue(issue({ assigneeUserId: null }), f("assignee=me"), null)).toBe(false);
    expect(matchesIssue(issue({ assigneeUserId: null }), f("assignee=none"), "u1")).toBe(true);
    expect(matchesIssue(issue({ assigneeUserId: "u2" }), f("assignee=u2"), "u1")).toBe(true);
  });
});
