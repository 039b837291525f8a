import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { jobs } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import type { JobsReportRow, ReportResponse } from "../../shared/reports/reports";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

const db = () => database(env.DB);
const at = (iso: string) => Date.parse(iso);

async function insertJob(workspaceId: string, fields: Partial<typeof jobs.$inferInsert>) {
  await db().batch([
    bumpVersion(db(), workspaceId),
    db()
      .insert(jobs)
      .values({
        id: crypto.randomUUID(),
        workspaceId,
        number: Math.floor(Math.random() * 1e9),
        title: "Stop",
        date: "2026-11-02",
        latitude: 41.88,
        longitude: -87.63,
        version: versionOf(workspaceId),
        ...fields,
      }),
  ]);
}

const report = async (token: string, query: string) => call(`/api/reports/jobs?${query}`, { token });

describe("GET /api/reports/jobs", () => {
  it("counts each vehicle's jobs of the range: completed, on time, late, skipped, average time at a stop; CSV too", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van 1", driver: "Ana" });
    const idle = await insertVehicle(a.workspaceId, { name: "Van 2" });
    // UTC workspace: a window to 10:00 ends at 10:00Z
    await insertJob(a.workspaceId, {
      vehicleId: van,
      status: "completed",
      windowEnd: "10:00",
      arrivedAt: at("2026-11-02T09:50:00Z"),
      departedAt: at("2026-11-02T10:02:00Z"),
      completedAt: at("2026-11-02T10:02:00Z"),
    });
    await insertJob(a.workspaceId, {
      vehicleId: van,
      status: "completed",
      windowEnd: "10:00",
      arrivedAt: at("2026-11-02T10:30:00Z"),
      departedAt: at("2026-11-02T10:38:00Z"),
      completedAt: at("2026-11-02T10:38:00Z"),
    });
    await insertJob(a.workspaceId, { vehicleId: van, status: "skipped" });
    // Arrived, not yet done: a job, but neither on time nor late (both are parts of "completed").
    await insertJob(a.workspaceId, { vehicleId: van, status: "arrived", arrivedAt: at("2026-11-02T11:00:00Z") });
    await insertJob(a.workspaceId, { vehicleId: van, status: "completed", date: "2026-11-05" }); // outside the range
    await insertJob(a.workspaceId, { vehicleId: van, status: "completed", deleted: true });
    const res = await report(a.token, "from=2026-11-01&to=2026-11-03");
    expect(res.status).toBe(200);
    const body = (await res.json()) as ReportResponse<JobsReportRow>;
    expect(body.rows).toEqual([
      {
        vehicleId: van,
        vehicleName: "Van 1",
        driver: "Ana",
        jobs: 4,
        completed: 2,
        onTime: 1,
        late: 1,
        skipped: 1,
        averageDwellMinutes: 10,
      },
      {
        vehicleId: idle,
        vehicleName: "Van 2",
        driver: null,
        jobs: 0,
        completed: 0,
        onTime: 0,
        late: 0,
        skipped: 0,
        averageDwellMinutes: null,
      },
    ]);
    // The chart's days: the same jobs by the same rule, every day of the range, and they add up to the rows.
    const zero = { jobs: 0, completed: 0, onTime: 0, late: 0, skipped: 0, averageDwellMinutes: null };
    expect(body.days).toEqual([
      { day: "2026-11-01", ...zero },
      { day: "2026-11-02", jobs: 4, completed: 2, onTime: 1, late: 1, skipped: 1, averageDwellMinutes: 10 },
      { day: "2026-11-03", ...zero },
    ]);
    const csv = await (await report(a.token, "from=2026-11-01&to=2026-11-03&format=csv")).text();
    expect(csv.split(/\r?\n/)[0]).toBe(
      "vehicleId,vehicleName,driver,jobs,completed,onTime,late,skipped,averageDwellMinutes",
    );
    expect(csv).toContain(`${van},Van 1,Ana,4,2,1,1,1,10`);
  });

  it("lets a viewer read it, names the bad field, and answers 404 for another workspace's vehicle", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertVehicle(b.workspaceId, { name: "Theirs" });
    await insertJob(b.workspaceId, { vehicleId: theirs, status: "completed" });
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const mine = (await (
      await report(viewer.token, "from=2026-11-01&to=2026-11-03")
    ).json()) as ReportResponse<JobsReportRow>;
    expect(mine.rows).toEqual([]);
    const bad = await report(a.token, "to=2026-11-03");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("from");
    expect((await report(a.token, `from=2026-11-01&to=2026-11-03&vehicleId=${theirs}`)).status).toBe(404);
  });
});
