import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { jobs } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { insertJob } from "../test/jobs";
import { pushMutations } from "../test/sync";

/**
 * Issue 51, finding 6: a driver's phone stamped arrival and completion at any past time
 * (`markJobArrived {at: 1}` was kept as 1970-01-01, counted on time by the report). A device's
 * time is kept only from the start of the job's day (the workspace's zone) or its assignment,
 * whichever is later, up to the time the server received it; otherwise the receiving time is kept
 * and the phone's time recorded on the row (`device_time_refused`).
 */
const db = () => database(env.DB);
const HOUR = 3_600_000;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const location = { latitude: 41.88, longitude: -87.63 };
const row = async (id: string) => (await db().select().from(jobs).where(eq(jobs.id, id)).get())!;

/** A job of `date`, planned a day before now (its vehicle given then too, when named). */
function plannedJob(workspaceId: string, date: string, vehicleId: string | null = null) {
  const planned = Date.now() - 24 * HOUR;
  return insertJob(workspaceId, {
    title: "Drop",
    date,
    vehicleId,
    ...location,
    createdAt: planned,
    assignedAt: vehicleId ? planned : null,
  });
}

/** Pushes the mutations and answers the server's time just before and just after. */
async function pushed(token: string, mutations: { name: string; args: unknown }[]) {
  const before = Date.now();
  const answer = await pushMutations(token, mutations);
  expect(answer.refused ?? []).toEqual([]);
  return { before, after: Date.now() };
}

describe("device-stamped job times", () => {
  it("replace an arrival stamped in 1970 with the receiving time and record the phone's", async () => {
    const a = await userWithWorkspace();
    const id = await plannedJob(a.workspaceId, dayOf(Date.now()));
    const { before, after } = await pushed(a.token, [{ name: "markJobArrived", args: { id, at: 1 } }]);
    const job = await row(id);
    expect(job.arrivedAt).toBeGreaterThanOrEqual(before);
    expect(job.arrivedAt).toBeLessThanOrEqual(after);
    expect(job.deviceTimeRefused).toBe(1);
  });

  it("keep a time within the job's day after its assignment, and flag nothing", async () => {
    const a = await userWithWorkspace();
    const today = dayOf(Date.now());
    const id = await plannedJob(a.workspaceId, today);
    const at = Math.max(Date.now() - 5 * 60_000, Date.parse(today));
    await pushed(a.token, [{ name: "markJobArrived", args: { id, at } }]);
    expect(await row(id)).toMatchObject({ arrivedAt: at, deviceTimeRefused: null });
  });

  it("replace a completion stamped before the job was given to the vehicle, or after it was received", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId);
    const today = dayOf(Date.now());
    const early = await plannedJob(a.workspaceId, today);
    const assigned = Date.now();
    expect(
      (await call(`/api/jobs/${early}`, { method: "PATCH", token: a.token, json: { vehicleId: van } })).status,
    ).toBe(200);
    expect((await row(early)).assignedAt).toBeGreaterThanOrEqual(assigned);
    const ahead = await plannedJob(a.workspaceId, today, van);
    const beforeAssignment = Math.max(assigned - 60_000, Date.parse(today));
    const future = Date.now() + 2 * HOUR;
    const { before, after } = await pushed(a.token, [
      { name: "completeJob", args: { id: early, at: beforeAssignment } },
      { name: "completeJob", args: { id: ahead, at: future } },
    ]);
    for (const [id, refused] of [
      [early, beforeAssignment],
      [ahead, future],
    ] as const) {
      const job = await row(id);
      expect(job).toMatchObject({ status: "completed", deviceTimeRefused: refused });
      expect(job.completedAt).toBeGreaterThanOrEqual(before);
      expect(job.completedAt).toBeLessThanOrEqual(after);
    }
  });

  it("replace an arrival at tomorrow's job stamped today: the job's day had not begun", async () => {
    const a = await userWithWorkspace();
    const id = await plannedJob(a.workspaceId, dayOf(Date.now() + 24 * HOUR));
    const at = Date.now() - 60_000;
    await pushed(a.token, [{ name: "markJobArrived", args: { id, at } }]);
    expect((await row(id)).deviceTimeRefused).toBe(at);
  });
});
