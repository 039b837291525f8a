import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import { ISSUE_FIELD_TABLE as TABLE, issueTable } from "../../shared/maintenance/issue-fields";
import { decodeIssue, issueKey, ISSUE_PREFIX, type IssueWire } from "../../shared/maintenance/issues";
import { database } from "../../db/client";
import { issues } from "../../db/schema";
import { issueJson } from "../api/maintenance-answers";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

const KEYS = issueTable.keys;

/**
 * Every field of the issue table (shared/maintenance/issue-fields.ts, docs/decisions/0106) end to
 * end, as a client sees it: given over REST, answered, stored, listed, patched, kept by a patch
 * that does not name it, cleared (a required one refused), pulled by sync and pushed by the
 * createIssue and updateIssue mutators. A field added to the table is checked here with no new
 * test (docs/add-a-field.md); a column added without its table entry, or an entry without its
 * column, fails the last test.
 */
const BASE = { title: "Flat tyre", priority: "medium" } as const;
/** What an issue given only the base has of each field (the base's, or none). */
const PLAIN = issueTable.given(BASE) as Record<string, unknown>;
/** Another value than the example, for a patch that names another field. */
const other = (key: string) => (key === "title" ? { dueDate: "2027-01-15" } : { title: "Renamed" });

const row = async (id: string) =>
  (await database(env.DB).select().from(issues).where(eq(issues.id, id)).get()) as Record<string, unknown> | undefined;

async function created(token: string, json: object): Promise<Record<string, unknown>> {
  const res = await call("/api/issues", { method: "POST", token, json });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function patched(token: string, id: string, json: object): Promise<Record<string, unknown>> {
  const res = await call(`/api/issues/${id}`, { method: "PATCH", token, json });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function pulled(token: string, id: string) {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === issueKey(id)) as { key: string; value: unknown };
  return decodeIssue(put.key.slice(ISSUE_PREFIX.length), put.value as IssueWire) as unknown as Record<string, unknown>;
}

async function setUp() {
  const { token, workspaceId } = await userWithWorkspace();
  return { token, vehicleId: await insertVehicle(workspaceId) };
}

describe.each(KEYS)("the issue field %s", (key) => {
  const example = TABLE[key].example;
  // a field every issue has (a title, a choice): a patch may change it, never clear it
  const required = "required" in TABLE[key];

  it("is kept as given over REST, answered, listed and pulled by sync; left out, it is the base's or none", async () => {
    const { token, vehicleId } = await setUp();
    const issue = await created(token, { vehicleId, ...BASE, [key]: example });
    expect(issue[key]).toEqual(example);
    expect((await row(issue.id as string))![key]).toEqual(example);
    expect((await pulled(token, issue.id as string))[key]).toEqual(example);
    const listed = (await (await call(`/api/issues?vehicleId=${vehicleId}`, { token })).json()) as {
      issues: Record<string, unknown>[];
    };
    expect(listed.issues.find((i) => i.id === issue.id)![key]).toEqual(example);

    const plain = await created(token, { vehicleId, ...BASE });
    expect(plain[key]).toEqual(PLAIN[key]);
    expect((await pulled(token, plain.id as string))[key]).toEqual(PLAIN[key]);
  });

  it("is changed by a patch that names it, kept by one that does not, and cleared by null (never a required one)", async () => {
    const { token, vehicleId } = await setUp();
    const { id } = await created(token, { vehicleId, ...BASE });
    expect((await patched(token, id as string, { [key]: example }))[key]).toEqual(example);
    expect((await patched(token, id as string, other(key)))[key]).toEqual(example);
    expect((await row(id as string))![key]).toEqual(example);
    const cleared = await call(`/api/issues/${id}`, { method: "PATCH", token, json: { [key]: null } });
    if (required) {
      expect(cleared.status).toBe(400);
      expect((await row(id as string))![key]).toEqual(example);
    } else {
      expect(cleared.status).toBe(200);
      expect(((await cleared.json()) as Record<string, unknown>)[key]).toBeNull();
      expect((await pulled(token, id as string))[key]).toBeNull();
    }
  });

  it("is kept as the createIssue and updateIssue mutators give it; a value of the wrong kind is a 400", async () => {
    const { token, vehicleId } = await setUp();
    const id = crypto.randomUUID();
    const plainId = crypto.randomUUID();
    const pushed = await pushMutations(token, [
      { name: "createIssue", args: { id, vehicleId, ...BASE, [key]: example } },
      { name: "createIssue", args: { id: plainId, vehicleId, ...BASE } },
      { name: "updateIssue", args: { id: plainId, [key]: example } },
    ]);
    expect(pushed.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulled(token, id))[key]).toEqual(example);
    expect((await row(plainId))![key]).toEqual(example);
    for (const [method, path] of [
      ["POST", "/api/issues"],
      ["PATCH", `/api/issues/${id}`],
    ] as const) {
      const bad = await call(path, { method, token, json: { vehicleId, ...BASE, [key]: {} } });
      expect(bad.status, `${method} ${path}`).toBe(400);
    }
  });
});

describe("the issue table", () => {
  it("answers exactly the keys its declaration documents, the table's and the written-out ones", async () => {
    const { token, vehicleId } = await setUp();
    const issue = await created(token, { vehicleId, ...BASE });
    const documented = Object.keys((issueJson as unknown as AnyZodObject).shape);
    expect(Object.keys(issue)).toEqual(documented);
    const beside = ["id", "number", "vehicleId", "description", "status", "reportedByUserId", "assigneeUserId"];
    const rest = ["photoIds", "sourceInspectionId", "sourceAlertId", "resolvedByServiceEntryId"];
    expect([...documented].sort()).toEqual([...beside, ...rest, "createdAt", "updatedAt", ...KEYS].sort());
  });

  it("has a column for each table field, and no column the table or the written-out fields do not account for", () => {
    const bookkeeping = ["id", "workspaceId", "version", "deleted", "createdVersion", "createdAt", "updatedAt"];
    const beside = ["number", "vehicleId", "description", "status", "reportedByUserId", "assigneeUserId"];
    const rest = ["photoIds", "sourceInspectionId", "sourceAlertId", "resolvedByServiceEntryId"];
    const columns = Object.keys(getTableColumns(issues));
    expect(columns.sort()).toEqual([...bookkeeping, ...beside, ...rest, ...KEYS].sort());
  });
});
