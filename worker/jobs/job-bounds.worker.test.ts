import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { JOB_CSV_HEADER, MAX_JOBS_PER_DAY, MAX_JOBS_PER_VEHICLE_DAY, MAX_UPCOMING_JOBS } from "../../shared/jobs/jobs";
import type { CreatedApiToken } from "../../shared/account/api-tokens";
import { bulkInsert } from "../../db/bulk";
import { database } from "../test/db";
import { jobs } from "../../db/schema";
import { bumpVersion } from "../test/db";
import { LIMITS } from "../auth/rate-limit";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { pushMutations } from "../test/sync";

/**
 * Issue 51, finding 2: one member could add any number of jobs to one day (a second import, one
 * more POST), and the workspace object then followed and rewrote all of them, stalling D1 for
 * every tenant. A vehicle's day, a workspace's day and its upcoming jobs are bounded (409
 * `limit_reached`) on every path that adds a job to a day, and imports are rate-limited.
 */
const db = () => database(env.DB);
const DAY = 86_400_000;
const dayFrom = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const location = { latitude: 41.88, longitude: -87.63 };

/** `count` live jobs on `date` (of `vehicleId`, or unassigned), written as one bulk batch. */
async function fill(workspaceId: string, date: string, count: number, vehicleId: string | null = null, from = 0) {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: crypto.randomUUID(),
    workspaceId,
    number: 100_000 + from + i,
    title: `Stop ${i}`,
    date,
    vehicleId,
    ...location,
    sequence: i,
    version: 0,
  }));
  await db().batch([bumpVersion(db(), workspaceId), ...bulkInsert(db(), jobs, rows, { onConflict: "nothing" })]);
}

const post = (token: string, json: Record<string, unknown>) =>
  call("/api/jobs", { method: "POST", token, json: { title: "One more", location, ...json } });

const importCsv = (token: string, ...lines: string[]) =>
  call("/api/jobs/import", {
    method: "POST",
    token,
    headers: { "Content-Type": "text/csv" },
    body: [JOB_CSV_HEADER, ...lines].join("\n"),
  });

async function expectLimit(res: Response, message: RegExp) {
  expect(res.status).toBe(409);
  expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
    code: "limit_reached",
    message: expect.stringMatching(message),
  });
}

describe("a vehicle's day is bounded", () => {
  it("refuses one more job by POST, a move onto the full day by PATCH, and the sync mutators that add one", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van" });
    const other = await insertVehicle(a.workspaceId, { name: "Truck" });
    const date = dayFrom(1);
    await fill(a.workspaceId, date, MAX_JOBS_PER_VEHICLE_DAY, van);

    await expectLimit(await post(a.token, { date, vehicleId: van }), /vehicle's day holds at most 200 jobs/);
    // another vehicle's day, and the same vehicle's next day, still take jobs
    const elsewhere = await post(a.token, { date, vehicleId: other });
    expect(elsewhere.status).toBe(201);
    const { id } = (await elsewhere.json()) as { id: string };
    expect((await post(a.token, { date: dayFrom(2), vehicleId: van })).status).toBe(201);

    const move = await call(`/api/jobs/${id}`, { method: "PATCH", token: a.token, json: { vehicleId: van } });
    await expectLimit(move, /vehicle's day holds at most 200 jobs/);
    expect((await db().select().from(jobs).where(eq(jobs.id, id)).get())!.vehicleId).toBe(other);

    const answer = await pushMutations(a.token, [
      { name: "createJob", args: { id: crypto.randomUUID(), title: "x", date, vehicleId: van, location } },
      { name: "updateJob", args: { id, vehicleId: van } },
      { name: "reorderJobs", args: { vehicleId: van, date, jobIds: [id] } },
    ]);
    expect(answer.refused?.map((r) => r.message)).toEqual([
      expect.stringMatching(/vehicle's day holds at most 200 jobs/),
      expect.stringMatching(/vehicle's day holds at most 200 jobs/),
      expect.stringMatching(/vehicle's day holds at most 200 jobs/),
    ]);
    const held = await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.vehicleId, van)).all();
    expect(held).toHaveLength(MAX_JOBS_PER_VEHICLE_DAY + 1);
  });
});

describe("a workspace's jobs are bounded", () => {
  it("refuses a job and an import past the day's bound, whether the day's jobs are assigned or not", async () => {
    const a = await userWithWorkspace();
    const date = dayFrom(3);
    await fill(a.workspaceId, date, MAX_JOBS_PER_DAY);
    await expectLimit(await post(a.token, { date }), /workspace's day holds at most 5,000 jobs/);
    const res = await importCsv(a.token, `Drop,41.9,-87.6,,${date},,,`);
    await expectLimit(res, /workspace's day holds at most 5,000 jobs/);
    expect((await post(a.token, { date: dayFrom(4) })).status).toBe(201);
  }, 30_000);

  it("refuses a job past the upcoming bound, while a day long past still takes one", async () => {
    const a = await userWithWorkspace();
    const perDay = MAX_UPCOMING_JOBS / 5;
    for (let d = 0; d < 5; d++) await fill(a.workspaceId, dayFrom(d + 10), perDay, null, d * perDay);
    await expectLimit(await post(a.token, { date: dayFrom(20) }), /at most 20,000 jobs from yesterday on/);
    expect((await post(a.token, { date: dayFrom(-30) })).status).toBe(201);
  }, 60_000);
});

describe("CSV imports of jobs", () => {
  it("are rate-limited per member and workspace", async () => {
    const a = await userWithWorkspace();
    const line = `Drop,41.9,-87.6,,${dayFrom(1)},,,`;
    for (let i = 0; i < LIMITS.jobImportsPerMember.max; i++) expect((await importCsv(a.token, line)).status).toBe(201);
    const refused = await importCsv(a.token, line);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("are rate-limited per API token, and a token's imports spend its creator's budget too", async () => {
    const a = await userWithWorkspace();
    const created = await call(`/api/workspaces/${a.workspaceId}/api-tokens`, {
      method: "POST",
      token: a.token,
      json: { name: "importer", scope: "write" },
    });
    const { token } = (await created.json()) as CreatedApiToken;
    const line = `Drop,41.9,-87.6,,${dayFrom(1)},,,`;
    for (let i = 0; i < LIMITS.jobImportsPerToken.max; i++) expect((await importCsv(token, line)).status).toBe(201);
    expect((await importCsv(token, line)).status).toBe(429);
    // the member's own budget is what is left of theirs: 20 in all, 10 of them spent by the token
    const left = LIMITS.jobImportsPerMember.max - LIMITS.jobImportsPerToken.max;
    for (let i = 0; i < left; i++) expect((await importCsv(a.token, line)).status).toBe(201);
    expect((await importCsv(a.token, line)).status).toBe(429);
  }, 30_000);
});
