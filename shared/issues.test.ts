import { describe, expect, it } from "vitest";
import { decodeIssue, encodeIssue, updateIssueBody, type Issue } from "./issues";

const issue: Omit<Issue, "id"> = {
  number: 7,
  vehicleId: "v",
  title: "Brake light out",
  description: null,
  priority: "medium",
  status: "open",
  reportedByUserId: "u",
  assigneeUserId: null,
  dueDate: null,
  photoIds: [],
  sourceInspectionId: null,
  sourceAlertId: null,
  createdAt: 1_795_000_000_000,
  updatedAt: 1_795_000_000_000,
};

describe("the synced issue", () => {
  it("leaves out nulls and the usual values (open, medium), and comes back whole", () => {
    expect(encodeIssue(issue)).toEqual({ n: 7, v: "v", t: "Brake light out", r: "u", c: 1_795_000_000 });
    expect(decodeIssue("i", encodeIssue(issue))).toEqual({ ...issue, id: "i" });
    const busy = { ...issue, priority: "critical" as const, status: "in_progress" as const, assigneeUserId: "a", dueDate: "2026-12-31", photoIds: ["p"], updatedAt: issue.createdAt + 60_000 };
    expect(decodeIssue("i", encodeIssue(busy))).toEqual({ ...busy, id: "i" });
  });
});

describe("a change to an issue", () => {
  it("keeps what it does not name, clears what it empties", () => {
    expect(updateIssueBody.parse({ status: "closed" })).toEqual({ status: "closed" });
    expect(updateIssueBody.parse({ description: "", dueDate: "" })).toEqual({ description: null, dueDate: null });
    expect(updateIssueBody.safeParse({ dueDate: "2026-02-30" }).success).toBe(false);
  });
});
