import { env } from "cloudflare:workers";
import { eq, getTableColumns } from "drizzle-orm";
import type { AnyZodObject } from "zod";
import { describe, expect, it } from "vitest";
import { decodeJob, jobKey, JOB_CSV_HEADER, type Job, type JobWire } from "../../shared/jobs/jobs";
import { JOB_FIELD_TABLE, JOB_TABLE_CSV_COLUMNS, jobTable } from "../../shared/jobs/job-fields";
import { database } from "../../db/client";
import { jobs } from "../../db/schema";
import { job as jobAnswer } from "../api/job-answers";
import { call, userWithWorkspace } from "../test/factories";
import { pullPatch, pushMutations } from "../test/sync";

/**
 * Every field of the job table (shared/jobs/job-fields.ts, docs/decisions/0082) end to end, as a
 * client sees it: given over REST, answered, stored, patched, cleared, pulled by sync, pushed by
 * a mutator and imported from a CSV. A field added to the table is checked here with no new test
 * (docs/add-a-field.md).
 */
const date = new Date().toISOString().slice(0, 10);
const location = { latitude: 41.881832, longitude: -87.623177 };
const emptyOf = (key: keyof typeof JOB_FIELD_TABLE) => {
  const spec = JOB_FIELD_TABLE[key];
  return spec.kind === "number" ? spec.default : null;
};
const row = (id: string) => database(env.DB).select().from(jobs).where(eq(jobs.id, id)).get();

async function restJob(token: string, path: string, method: string, json: unknown): Promise<Job> {
  const res = await call(path, { method, token, json });
  expect(res.status, await res.clone().text()).toBe(method === "POST" ? 201 : 200);
  return res.json();
}

async function pulledJob(token: string, id: string) {
  const { patch } = await pullPatch(token, null);
  const put = patch.find((p) => p.op === "put" && p.key === jobKey(id));
  return decodeJob(id, put!.value as JobWire);
}

describe.each(jobTable.keys)("the job field %s", (key) => {
  const example = JOB_FIELD_TABLE[key].example;

  it("is kept as given over REST, answered, patched and pulled by sync", async () => {
    const a = await userWithWorkspace();
    const created = await restJob(a.token, "/api/jobs", "POST", { title: "Drop", date, location, [key]: example });
    expect(created[key]).toEqual(example);
    expect((await row(created.id))![key]).toEqual(example);
    expect((await pulledJob(a.token, created.id))[key]).toEqual(example);
    const listed = (await (await call(`/api/jobs?date=${date}`, { token: a.token })).json()) as { jobs: Job[] };
    expect(listed.jobs.find((j) => j.id === created.id)![key]).toEqual(example);

    const plain = await restJob(a.token, "/api/jobs", "POST", { title: "Plain", date, location });
    expect(plain[key]).toEqual(emptyOf(key));
    const patched = await restJob(a.token, `/api/jobs/${plain.id}`, "PATCH", { [key]: example });
    expect(patched[key]).toEqual(example);
    // a patch that does not name it keeps it
    expect((await restJob(a.token, `/api/jobs/${plain.id}`, "PATCH", { title: "Renamed" }))[key]).toEqual(example);
    if (JOB_FIELD_TABLE[key].kind === "text")
      expect((await restJob(a.token, `/api/jobs/${plain.id}`, "PATCH", { [key]: null }))[key]).toBeNull();
  });

  it("is kept as a sync mutator gives it; a value of the wrong kind is a 400", async () => {
    const a = await userWithWorkspace();
    const id = crypto.randomUUID();
    const answer = await pushMutations(a.token, [
      { name: "createJob", args: { id, title: "Drop", date, location, [key]: example } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    expect((await row(id))![key]).toEqual(example);
    expect((await pulledJob(a.token, id))[key]).toEqual(example);
    const bad = await call("/api/jobs", {
      method: "POST",
      token: a.token,
      json: { title: "Bad", date, location, [key]: {} },
    });
    expect(bad.status).toBe(400);
  });
});

describe("the job table's CSV columns", () => {
  it.runIf(JOB_TABLE_CSV_COLUMNS.length > 0)("are imported as the line gives them, and may be left out", async () => {
    const a = await userWithWorkspace();
    const cells = JOB_TABLE_CSV_COLUMNS.map((k) => String(JOB_FIELD_TABLE[k].example));
    const fixed = [`Full,${location.latitude},${location.longitude},,${date},,,`];
    const text = [JOB_CSV_HEADER, `${fixed[0]},${cells.join(",")}`, `Short,1,2,,${date},,,`].join("\n");
    const res = await call("/api/jobs/import", {
      method: "POST",
      token: a.token,
      headers: { "Content-Type": "text/csv" },
      body: text,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const listed = (await (await call(`/api/jobs?date=${date}`, { token: a.token })).json()) as { jobs: Job[] };
    const full = listed.jobs.find((j) => j.title === "Full")!;
    const short = listed.jobs.find((j) => j.title === "Short")!;
    for (const k of JOB_TABLE_CSV_COLUMNS) {
      expect(full[k]).toEqual(JOB_FIELD_TABLE[k].example);
      expect(short[k]).toEqual(emptyOf(k));
    }
    expect(await pulledJob(a.token, full.id)).toMatchObject(
      Object.fromEntries(JOB_TABLE_CSV_COLUMNS.map((k) => [k, JOB_FIELD_TABLE[k].example])),
    );
  });
});

/** A job's REST answer as DESIGN.md gives it: the table's fields among these, none added or lost by the table. */
const ANSWER_KEYS = [
  "id",
  "number",
  "title",
  "date",
  "vehicleId",
  "placeId",
  "location",
  "radiusMeters",
  "windowStart",
  "windowEnd",
  "durationMinutes",
  "sequence",
  "notes",
  "customerName",
  "customerEmail",
  "status",
  "enRouteAt",
  "arrivedAt",
  "departedAt",
  "completedAt",
  "eta",
  "late",
  "proof",
  "createdAt",
  "updatedAt",
];
/** The columns with rules or encodings of their own (shared/jobs/jobs.ts), and the row's bookkeeping. */
const COLUMNS_OUTSIDE_THE_TABLE = [
  ...["id", "workspaceId", "version", "deleted", "createdVersion", "number", "title", "date", "vehicleId"],
  ...["placeId", "latitude", "longitude", "address", "windowStart", "windowEnd", "sequence", "status"],
  ...[
    "enRouteAt",
    "arrivedAt",
    "departedAt",
    "completedAt",
    "eta",
    "late",
    "visits",
    "proofPhotoIds",
    "signaturePhotoId",
  ],
  ...["recipientName", "proofNote", "completedByUserId", "createdByUserId", "assignedAt", "deviceTimeRefused"],
  ...["createdAt", "updatedAt"],
];

describe("a job's answer and row", () => {
  it("answers exactly the keys its declaration documents, the table's and the fixed ones", async () => {
    const a = await userWithWorkspace();
    const created = await restJob(a.token, "/api/jobs", "POST", { title: "Drop", date, location });
    const documented = Object.keys((jobAnswer as unknown as AnyZodObject).shape);
    expect(Object.keys(created).sort()).toEqual([...documented].sort());
    expect([...documented].sort()).toEqual(
      [...ANSWER_KEYS, ...jobTable.keys.filter((k) => !ANSWER_KEYS.includes(k))].sort(),
    );
  });

  it("has a column for each table field, and no column the table or the fixed fields do not account for", () => {
    const columns = Object.keys(getTableColumns(jobs));
    expect(columns.sort()).toEqual([...COLUMNS_OUTSIDE_THE_TABLE, ...jobTable.keys].sort());
  });
});
