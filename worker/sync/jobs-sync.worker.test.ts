import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { decodeJob, jobKey, type JobWire } from "../../shared/jobs/jobs";
import { database } from "../test/db";
import { jobs } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { pushMutations as push, pullPatch } from "../test/sync";

/**
 * Jobs through sync (issue 43, docs/decisions/0052): planned, reordered, arrived at and completed
 * as pushed mutations through the REST writes, and pulled in a bounded window of dates.
 */
type Patch = { op: string; key: string; value?: unknown }[];
const DAY = 86_400_000;
const dayFrom = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const location = { latitude: 41.881832, longitude: -87.623177 };

const pull = (token: string, cookie: unknown = null) => pullPatch(token, cookie);
const putsOf = (patch: Patch) => new Map(patch.filter((p) => p.op === "put").map((p) => [p.key, p.value]));
const row = (id: string) => database(env.DB).select().from(jobs).where(eq(jobs.id, id)).get();

/** A job written as the REST route writes one, dated `days` from today. */
async function insertJob(workspaceId: string, days: number, number: number) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  await db.batch([
    bumpVersion(db, workspaceId),
    db.insert(jobs).values({
      id,
      workspaceId,
      number,
      title: `Stop ${number}`,
      date: dayFrom(days),
      ...location,
      version: versionOf(workspaceId),
      createdAt: Date.now() - DAY,
    }),
  ]);
  return id;
}

describe("jobs through sync", () => {
  it("applies a member's planning as the REST route would (numbered, the caller as planner) and pulls it compact", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const van = await insertVehicle(a.workspaceId);
    const [one, two] = [crypto.randomUUID(), crypto.randomUUID()];
    const date = dayFrom(0);
    const answer = await push(member.token, [
      { name: "createJob", args: { id: one, title: "Drop", date, vehicleId: van, location, windowStart: "09:00" } },
      { name: "createJob", args: { id: two, title: "Pick up", date, vehicleId: van, location } },
      { name: "reorderJobs", args: { vehicleId: van, date, jobIds: [two, one] } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    expect(await row(one)).toMatchObject({ number: 1, sequence: 1, createdByUserId: member.userId });
    expect(await row(two)).toMatchObject({ number: 2, sequence: 0 });
    const value = putsOf((await pull(a.token)).patch).get(jobKey(one)) as JobWire;
    expect(decodeJob(one, value)).toMatchObject({
      number: 1,
      title: "Drop",
      date,
      vehicleId: van,
      windowStart: "09:00",
      sequence: 1,
    });
    expect(value).toEqual([1, "Drop", expect.any(Number), 1, 4_188_183, -8_762_318, expect.any(String), null, 540]);
  });

  it("takes the driver's arrival at the phone's time and their proof as theirs, and refuses a move the status rule forbids", async () => {
    const a = await userWithWorkspace();
    const driver = await memberWithRole(a.workspaceId, "member");
    const id = await insertJob(a.workspaceId, 0, 1);
    // ten minutes ago, or the start of the job's day (UTC) if that was later: a phone's time is kept within its day
    const arrivedAt = Math.max(Date.now() - 10 * 60_000, Date.parse(dayFrom(0)));
    const answer = await push(driver.token, [
      { name: "markJobArrived", args: { id, at: arrivedAt } },
      { name: "completeJob", args: { id, at: Date.now(), recipientName: "Ann", completedByUserId: a.userId } },
      { name: "cancelJob", args: { id } },
    ]);
    expect(answer.refused?.map((r) => [r.name, r.message])).toEqual([
      ["cancelJob", "Status: a completed job cannot become cancelled"],
    ]);
    expect(await row(id)).toMatchObject({
      status: "completed",
      arrivedAt,
      recipientName: "Ann",
      completedByUserId: driver.userId,
    });
  });

  it("refuses what the API would answer with a 4xx, writing nothing: another workspace's vehicle or job, a taken id, bad fields", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirVan = await insertVehicle(b.workspaceId);
    const theirJob = await insertJob(b.workspaceId, 0, 1);
    const stranger = crypto.randomUUID();
    const answer = await push(a.token, [
      { name: "createJob", args: { id: stranger, title: "x", date: dayFrom(0), vehicleId: theirVan, location } },
      { name: "createJob", args: { id: theirJob, title: "x", date: dayFrom(0), location } },
      { name: "createJob", args: { id: crypto.randomUUID(), title: "", date: dayFrom(0), location } },
      { name: "updateJob", args: { id: theirJob, title: "Mine" } },
      { name: "reorderJobs", args: { vehicleId: null, date: dayFrom(0), jobIds: [theirJob] } },
      { name: "completeJob", args: { id: theirJob, at: Date.now() } },
      { name: "deleteJob", args: { id: theirJob } },
    ]);
    expect(answer.refused).toHaveLength(7);
    expect(await row(stranger)).toBeUndefined();
    expect(await row(theirJob)).toMatchObject({
      workspaceId: b.workspaceId,
      title: "Stop 1",
      status: "scheduled",
      deleted: false,
    });
    expect(await database(env.DB).select().from(jobs).where(eq(jobs.workspaceId, a.workspaceId)).all()).toEqual([]);
  });

  it("carries yesterday to a week ahead in a first sync, any change since the cookie whatever its date, and a delete as a del", async () => {
    const a = await userWithWorkspace();
    const inWindow = [
      await insertJob(a.workspaceId, -1, 1),
      await insertJob(a.workspaceId, 0, 2),
      await insertJob(a.workspaceId, 7, 3),
    ];
    const outside = [await insertJob(a.workspaceId, -5, 4), await insertJob(a.workspaceId, 12, 5)];
    const first = await pull(a.token);
    const keys = putsOf(first.patch);
    expect(inWindow.map((id) => keys.has(jobKey(id)))).toEqual([true, true, true]);
    expect(outside.map((id) => keys.has(jobKey(id)))).toEqual([false, false]);
    const late = await insertJob(a.workspaceId, -30, 6);
    const next = await pull(a.token, first.cookie);
    expect(putsOf(next.patch).has(jobKey(late))).toBe(true);
    await push(a.token, [{ name: "deleteJob", args: { id: inWindow[0]! } }]);
    expect((await pull(a.token, next.cookie)).patch).toContainEqual({ op: "del", key: jobKey(inWindow[0]!) });
  });
});

describe("the first sync's cost of jobs", () => {
  it("grows by at most 150 B per job of the synced window (a 15-character title, a vehicle, a window), a 15-character address included", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId, { name: "Van 1" });
    const size = async () => JSON.stringify(await pull(a.token)).length;
    const plan = (days: number, i: number, address?: string) =>
      call("/api/jobs", {
        method: "POST",
        token: a.token,
        json: {
          title: `Deliver #${100_042 + i}`,
          date: dayFrom(days),
          vehicleId,
          location: { latitude: 41.881832 + i / 1000, longitude: -87.623177 - i / 1000, address },
          windowStart: "09:00",
          windowEnd: "11:00",
        },
      });
    const before = await size();
    for (let i = 0; i < 10; i++) expect((await plan(1, i)).status).toBe(201);
    const after = await size();
    for (let i = 0; i < 10; i++) expect((await plan(2, i, `${100 + i} W Fulton St`)).status).toBe(201);
    const withAddress = await size();
    for (let i = 0; i < 10; i++) await plan(30, i);
    const perJob = (after - before) / 10;
    const perAddressedJob = (withAddress - after) / 10;
    console.log(`first sync: ${perJob} B per synced job, ${perAddressedJob} B with a 15-character address`);
    expect(perJob).toBeLessThanOrEqual(150);
    expect(perAddressedJob).toBeLessThanOrEqual(150);
    expect(await size()).toBe(withAddress);
  });
});
