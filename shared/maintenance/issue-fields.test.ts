import { describe, expect, it } from "vitest";
import { memoryTransaction } from "../sync/memory-transaction";
import { ISSUE_FIELD_TABLE, ISSUE_PRIORITIES, issueTable } from "./issue-fields";
import {
  createIssueArgs,
  createIssueBody,
  decodeIssue,
  encodeIssue,
  issueKey,
  packId,
  updateIssueBody,
  type IssueWire,
} from "./issues";
import { issueMutators } from "./issues-mutators";

/**
 * The issue table (docs/decisions/0106) reaches every place its fields are listed, and the synced
 * value stays the one a tab from before the table reads and writes: same keys, priority as its
 * index with medium left out, an absent or unknown index read as medium.
 */
const examples = Object.fromEntries(issueTable.keys.map((k) => [k, ISSUE_FIELD_TABLE[k].example]));
const base = { vehicleId: "v1", title: "Flat tyre", priority: "medium" };

describe("the issue table", () => {
  it("is checked by the body, the patch and the createIssue mutator's arguments, each keeping its value", () => {
    expect(createIssueBody.parse({ ...base, ...examples })).toMatchObject(examples);
    expect(updateIssueBody.parse(examples)).toEqual(examples);
    expect(createIssueArgs.parse({ id: "i", ...base, ...examples })).toMatchObject(examples);
    for (const k of issueTable.keys) {
      expect(createIssueBody.safeParse({ ...base, [k]: {} }).success, k).toBe(false);
      expect(updateIssueBody.safeParse({ [k]: {} }).success, k).toBe(false);
    }
  });

  it("keeps the body's and the patch's key order: the description after the title, the assignee after the priority", () => {
    const beside: Record<string, string> = { title: "description", priority: "assigneeUserId" };
    const fields = issueTable.keys.flatMap((k) => (beside[k] ? [k, beside[k]] : [k]));
    expect(Object.keys(createIssueBody.shape)).toEqual(["vehicleId", ...fields, "photoIds"]);
    expect(Object.keys(updateIssueBody.shape)).toEqual(["status", ...fields, "photoIds"]);
  });

  it("is kept by the mutators and travels under its own short key", async () => {
    const { tx, map } = memoryTransaction();
    await issueMutators.createIssue(tx, { id: "i1", ...base, ...examples } as never);
    const wire = map.get(issueKey("i1")) as IssueWire;
    expect(decodeIssue(packId("i1"), wire)).toMatchObject(examples);
    for (const k of issueTable.keys) expect(wire).toHaveProperty(ISSUE_FIELD_TABLE[k].wire);
    await issueMutators.createIssue(tx, { id: "i2", ...base } as never);
    await issueMutators.updateIssue(tx, { id: "i2", ...examples } as never);
    expect(decodeIssue(packId("i2"), map.get(issueKey("i2")) as IssueWire)).toMatchObject(examples);
    const wires = issueTable.keys.map((k) => ISSUE_FIELD_TABLE[k].wire);
    const beside = ["n", "v", "d", "dl", "s", "r", "a", "ph", "si", "sa", "c", "u"];
    expect(new Set([...wires, ...beside]).size).toBe(wires.length + beside.length);
  });

  it("reads and writes the synced value as a tab from before the table does", () => {
    // every key a tab wrote before the table, in its order
    const yesterdays: IssueWire = {
      n: 3,
      v: "~v1",
      t: "Brake light out",
      c: 1_795_000_000,
      p: 3,
      s: 1,
      d: "Left rear",
      a: "~u2",
      due: "2026-12-31",
      ph: ["p1"],
      si: "ins1",
      sa: "al1",
      r: "u1",
      u: 1_795_000_060,
    };
    const issue = decodeIssue(packId("i"), yesterdays);
    expect(issue).toMatchObject({ title: "Brake light out", priority: "critical", dueDate: "2026-12-31" });
    const again = encodeIssue(issue, { whole: true });
    expect(again).toEqual(yesterdays);
    // the same keys; the table's (t, p, due) are now written together after the vehicle
    expect(Object.keys(again).sort()).toEqual(Object.keys(yesterdays).sort());
  });

  it("syncs a priority as its index as before, medium left out; an absent or unknown index reads as medium", () => {
    const wire = (priority: (typeof ISSUE_PRIORITIES)[number]) =>
      encodeIssue({ ...decodeIssue(packId("i"), { v: "~v", t: "x", c: 1 }), priority }).p;
    expect(ISSUE_PRIORITIES.map(wire)).toEqual([0, undefined, 2, 3]);
    expect(decodeIssue(packId("i"), { v: "~v", t: "x", c: 1 }).priority).toBe("medium");
    expect(decodeIssue(packId("i"), { v: "~v", t: "x", c: 1, p: 1 }).priority).toBe("medium");
    expect(decodeIssue(packId("i"), { v: "~v", t: "x", c: 1, p: 9 }).priority).toBe("medium");
  });

  it("asks for each field in the Report an issue form, checked input by input", () => {
    const asked = issueTable.keys.filter((k) => ISSUE_FIELD_TABLE[k].form);
    expect(issueTable.formFields.map((f) => f.name)).toEqual(asked);
    const priority = issueTable.formFields.find((f) => f.name === "priority")!;
    expect(priority.options?.map((o) => o.label)).toEqual(["Low", "Medium", "High", "Critical"]);
    const { title, dueDate } = issueTable.formChecks;
    expect(title.safeParse("  ").error?.issues[0]?.message).toBe("Required");
    expect(dueDate.parse(undefined)).toBeNull();
    expect(dueDate.safeParse("2026-02-30").error?.issues[0]?.message).toBe("Use a real date");
  });
});
