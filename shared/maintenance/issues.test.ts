import { describe, expect, it } from "vitest";
import { issueTable } from "./issue-fields";
import {
  decodeIssue,
  encodeIssue,
  issueIdOfKeyPart,
  issueKey,
  packId,
  SYNCED_DESCRIPTION,
  unpackId,
  updateIssueBody,
  type Issue,
} from "./issues";

const issue: Omit<Issue, "id"> = {
  number: 7,
  vehicleId: "v",
  ...issueTable.given({ title: "Brake light out", priority: "medium" }),
  description: null,
  status: "open",
  reportedByUserId: "u",
  assigneeUserId: null,
  photoIds: [],
  sourceInspectionId: null,
  sourceAlertId: null,
  createdAt: 1_795_000_000_000,
  updatedAt: 1_795_000_000_000,
};

const vehicleId = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";
const userId = "6fa459ea-ee8a-4ca4-894e-db77e160355e";

describe("the synced issue", () => {
  it("the browser's copy leaves out nulls and the usual values (open, medium), and comes back whole", () => {
    expect(encodeIssue(issue, { whole: true })).toEqual({
      n: 7,
      v: "~v",
      t: "Brake light out",
      r: "u",
      c: 1_795_000_000,
    });
    expect(decodeIssue(packId("i"), encodeIssue(issue, { whole: true }))).toEqual({ ...issue, id: "i" });
    const busy = {
      ...issue,
      priority: "critical" as const,
      status: "in_progress" as const,
      assigneeUserId: "a",
      dueDate: "2026-12-31",
      photoIds: ["p"],
      updatedAt: issue.createdAt + 60_000,
    };
    expect(decodeIssue(packId("i"), encodeIssue(busy, { whole: true }))).toEqual({ ...busy, id: "i" });
  });

  it("the server's copy packs UUIDs and leaves out the reporter, the change time and a long description", () => {
    const id = crypto.randomUUID();
    const long = "x".repeat(SYNCED_DESCRIPTION + 1);
    const synced = {
      ...issue,
      vehicleId,
      reportedByUserId: userId,
      assigneeUserId: userId,
      description: long,
      updatedAt: issue.createdAt + 60_000,
    };
    const wire = encodeIssue(synced);
    expect(wire).toEqual({
      n: 7,
      v: packId(vehicleId),
      t: "Brake light out",
      a: packId(userId),
      dl: 1,
      c: 1_795_000_000,
    });
    expect(issueKey(id)).toHaveLength("issue/".length + 21);
    expect(decodeIssue(issueKey(id).slice("issue/".length), wire)).toEqual({
      ...synced,
      id,
      reportedByUserId: null,
      description: null,
      descriptionOnServer: true,
      updatedAt: issue.createdAt,
    });
    // A short description travels whole.
    expect(encodeIssue({ ...synced, description: "Left rear" }).d).toBe("Left rear");
  });

  it("packs a random UUID into 21 characters, another UUID into 22 and any other id behind a ~, and unpacks each", () => {
    for (let i = 0; i < 200; i++) {
      const id = crypto.randomUUID();
      expect(packId(id)).toMatch(/^[A-Za-z0-9_-]{21}$/);
      expect(unpackId(packId(id))).toBe(id);
    }
    for (const id of ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-1fff-cfff-ffffffffffff"]) {
      expect(packId(id)).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(unpackId(packId(id))).toBe(id);
    }
    for (const id of ["ffffffff-ffff-4fff-bfff-ffffffffffff", "00000000-0000-4000-8000-000000000000"])
      expect(unpackId(packId(id))).toBe(id);
    for (const id of ["demo-issue-1", "ABCDEFGH-1234-4123-8123-ABCDEFABCDEF", "x/y", "~"])
      expect(unpackId(packId(id))).toBe(id);
    expect(issueIdOfKeyPart(issueKey("demo-1").slice("issue/".length))).toBe("demo-1");
  });
});

describe("a change to an issue", () => {
  it("keeps what it does not name, clears what it empties", () => {
    expect(updateIssueBody.parse({ status: "closed" })).toEqual({ status: "closed" });
    expect(updateIssueBody.parse({ description: "", dueDate: "" })).toEqual({ description: null, dueDate: null });
    expect(updateIssueBody.safeParse({ dueDate: "2026-02-30" }).success).toBe(false);
  });
});
