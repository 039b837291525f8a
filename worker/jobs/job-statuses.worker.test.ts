import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { jobs } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { insertJob } from "../test/jobs";
import { pushMutations as push } from "../test/sync";

/**
 * Statuses through a planner's changes and a driver's buttons (issue 53, docs/decisions/0083):
 * a finished job keeps its place, a skipped one can still be arrived at and done, a job given to
 * another vehicle is no longer en route, and a job's story answers its visits.
 */
const today = () => new Date().toISOString().slice(0, 10);
const row = async (id: string) => (await database(env.DB).select().from(jobs).where(eq(jobs.id, id)).get())!;
const at = { latitude: 41.88, longitude: -87.63 };

/** A vehicle's day: a first stop (as `first` says), a second the vehicle is on its way to, a third. */
async function dayOfThree(
  workspaceId: string,
  vehicleId: string,
  first: Omit<Parameters<typeof insertJob>[1], "date">,
) {
  const date = today();
  const done = await insertJob(workspaceId, { ...at, date, vehicleId, sequence: 0, ...first });
  const next = await insertJob(workspaceId, { ...at, date, vehicleId, sequence: 1, status: "en_route", enRouteAt: 1 });
  const last = await insertJob(workspaceId, { ...at, date, vehicleId, sequence: 2 });
  return { date, done, next, last };
}

describe("a finished job keeps its place", () => {
  it("refuses a new sequence, vehicle or day for a completed or cancelled job with a 409 naming it", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId);
    const completed = await insertJob(a.workspaceId, { ...at, date: today(), vehicleId: van, status: "completed" });
    const cancelled = await insertJob(a.workspaceId, { ...at, date: today(), vehicleId: van, status: "cancelled" });
    const other = await insertVehicle(a.workspaceId);
    for (const [id, patch] of [
      [completed, { sequence: 5 }],
      [completed, { vehicleId: other }],
      [cancelled, { sequence: 5 }],
    ] as const) {
      const res = await call(`/api/jobs/${id}`, { method: "PATCH", token: a.token, json: patch });
      expect(res.status).toBe(409);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("job_finished");
      expect(body.error.message).toMatch(/^Job #\d+ is (completed|cancelled): it keeps its place in the day/);
    }
    expect(await row(completed)).toMatchObject({ sequence: 0, vehicleId: van });
    // its other fields still change, and a cancelled job scheduled again may move in the same edit
    const renamed = await call(`/api/jobs/${completed}`, { method: "PATCH", token: a.token, json: { title: "Drop" } });
    expect(renamed.status).toBe(200);
    const again = await call(`/api/jobs/${cancelled}`, {
      method: "PATCH",
      token: a.token,
      json: { status: "scheduled", sequence: 5 },
    });
    expect(again.status).toBe(200);
  });

  it("refuses a reorder that moves a finished job, writing nothing, and takes one that moves only open stops", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId);
    const { date, done, next, last } = await dayOfThree(a.workspaceId, van, { status: "completed" });
    const refused = await push(a.token, [
      { name: "reorderJobs", args: { vehicleId: van, date, jobIds: [next, done, last] } },
    ]);
    expect(refused.refused?.map((r) => r.message)).toEqual([
      expect.stringMatching(/^Job #\d+ is completed: it keeps its place in the day/),
    ]);
    expect(await row(next)).toMatchObject({ sequence: 1, status: "en_route" });
    const taken = await push(a.token, [
      { name: "reorderJobs", args: { vehicleId: van, date, jobIds: [done, last, next] } },
    ]);
    expect(taken.refused ?? []).toEqual([]);
    // the new second stop is the one en route now (the vehicle was on its way), the other scheduled again
    expect(await row(last)).toMatchObject({ sequence: 1, status: "en_route" });
    expect(await row(next)).toMatchObject({ sequence: 2, status: "scheduled", enRouteAt: null });
    expect(await row(done)).toMatchObject({ sequence: 0, status: "completed" });
  });
});

describe("a job given to another vehicle", () => {
  it("is no longer en route, and has no ETA from the vehicle it left", async () => {
    const a = await userWithWorkspace();
    const [van, truck] = [await insertVehicle(a.workspaceId), await insertVehicle(a.workspaceId)];
    const id = await insertJob(a.workspaceId, {
      ...at,
      date: today(),
      vehicleId: van,
      status: "en_route",
      enRouteAt: Date.now() - 60_000,
      eta: Date.now() + 600_000,
    });
    const res = await call(`/api/jobs/${id}`, { method: "PATCH", token: a.token, json: { vehicleId: truck } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ vehicleId: truck, status: "scheduled", enRouteAt: null, eta: null });
  });
});

describe("a skipped stop", () => {
  it("can still be arrived at and done by the driver", async () => {
    const a = await userWithWorkspace();
    const driver = await memberWithRole(a.workspaceId, "member");
    const date = today();
    const skipped = await insertJob(a.workspaceId, {
      ...at,
      date,
      status: "skipped",
      createdAt: Date.now() - 3_600_000,
    });
    const arrivedAt = Date.now() - 60_000;
    const answer = await push(driver.token, [
      { name: "markJobArrived", args: { id: skipped, at: arrivedAt } },
      { name: "completeJob", args: { id: skipped, at: Date.now(), recipientName: "Ann" } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    expect(await row(skipped)).toMatchObject({
      status: "completed",
      arrivedAt,
      visits: [{ arrivedAt, departedAt: null }],
      recipientName: "Ann",
    });
    const other = await insertJob(a.workspaceId, { ...at, date, status: "skipped" });
    const done = await call(`/api/jobs/${other}/complete`, { method: "POST", token: a.token, json: {} });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ status: "completed" });
  });
});

describe("a job's story", () => {
  it("answers every visit in order, the one not left without a departure, and minutes late", async () => {
    const a = await userWithWorkspace();
    const date = today();
    const windowEnd = Date.parse(`${date}T00:10:00Z`);
    const visits = [
      { arrivedAt: windowEnd + 5 * 60_000 + 1, departedAt: windowEnd + 9 * 60_000 },
      { arrivedAt: windowEnd + 40 * 60_000, departedAt: null },
    ];
    const id = await insertJob(a.workspaceId, {
      ...at,
      date,
      windowEnd: "00:10",
      status: "arrived",
      arrivedAt: visits[0]!.arrivedAt,
      late: true,
      visits,
    });
    const res = await call(`/api/jobs/${id}`, { token: a.token });
    expect(res.status).toBe(200);
    const story = (await res.json()) as Record<string, unknown>;
    expect(story).toMatchObject({
      id,
      status: "arrived",
      visits: [
        {
          arrivedAt: new Date(visits[0]!.arrivedAt).toISOString(),
          departedAt: new Date(visits[0]!.departedAt!).toISOString(),
        },
        { arrivedAt: new Date(visits[1]!.arrivedAt).toISOString() },
      ],
      lateMinutes: 6,
    });
    expect(story.visits).toHaveLength(2);
    expect(Object.keys((story.visits as object[])[1]!)).toEqual(["arrivedAt"]);
  });

  it("answers one visit for a job reached before visits were kept, none and no lateMinutes for one not reached", async () => {
    const a = await userWithWorkspace();
    const reached = await insertJob(a.workspaceId, {
      ...at,
      date: today(),
      arrivedAt: 1_000_000,
      departedAt: 2_000_000,
    });
    const story = (await (await call(`/api/jobs/${reached}`, { token: a.token })).json()) as Record<string, unknown>;
    expect(story.visits).toEqual([
      { arrivedAt: new Date(1_000_000).toISOString(), departedAt: new Date(2_000_000).toISOString() },
    ]);
    const fresh = await insertJob(a.workspaceId, { ...at, date: today() });
    const none = (await (await call(`/api/jobs/${fresh}`, { token: a.token })).json()) as Record<string, unknown>;
    expect(none.visits).toEqual([]);
    expect("lateMinutes" in none).toBe(false);
  });

  it("is another workspace's job: 404, as one that does not exist", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await insertJob(b.workspaceId, { ...at, date: today() });
    expect((await call(`/api/jobs/${theirs}`, { token: a.token })).status).toBe(404);
    expect((await call(`/api/jobs/${crypto.randomUUID()}`, { token: a.token })).status).toBe(404);
  });
});
