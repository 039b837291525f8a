import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../test/db";
import { jobNotifications, jobs, jobShares } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { collectTombstones, TOMBSTONE_HORIZON_MS } from "../sync/tombstones";
import { runRetention } from "../retention";

// Jobs leave D1 like every synced entity (issue 43, docs/decisions/0062): a deleted job's tombstone
// is collected past the sync horizon with its customer links and queued pushes; a finished job's
// customer link a day after it ended. The finished job itself stays: it is the on-time report's record.
const db = () => database(env.DB);
const DAY = 86_400_000;

async function plannedJob(token: string, json: Record<string, unknown> = {}) {
  const res = await call("/api/jobs", {
    method: "POST",
    token,
    json: { title: "Deliver", date: "2026-11-30", location: { latitude: 41.88, longitude: -87.63 }, ...json },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function share(token: string, jobId: string) {
  expect((await call(`/api/jobs/${jobId}/shares`, { method: "POST", token, json: {} })).status).toBe(201);
}

const exists = async (id: string) => !!(await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.id, id)).get());
const sharesOf = async (ids: string[]) =>
  (await db().select({ jobId: jobShares.jobId }).from(jobShares).where(inArray(jobShares.jobId, ids)).all()).map(
    (s) => s.jobId,
  );

describe("jobs leaving D1", () => {
  it("collects a deleted job's tombstone past the horizon, with its customer link and queued push", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId);
    const gone = await plannedJob(a.token, { vehicleId: van });
    const live = await plannedJob(a.token);
    await share(a.token, gone);
    // a push still queued for the driver (the sender claims it; here nobody has yet)
    await db()
      .insert(jobNotifications)
      .values({ id: crypto.randomUUID(), workspaceId: a.workspaceId, jobId: gone, vehicleId: van });
    expect((await call(`/api/jobs/${gone}`, { method: "DELETE", token: a.token })).status).toBe(204);
    const theirs = await plannedJob(b.token);

    const now = Date.now();
    await collectTombstones({ env, db: db() }, now); // writes each workspace's version down
    // deleted after the write-down: younger than any horizon yet
    expect((await call(`/api/jobs/${theirs}`, { method: "DELETE", token: b.token })).status).toBe(204);
    await collectTombstones({ env, db: db() }, now + TOMBSTONE_HORIZON_MS / 2);
    expect(await exists(gone)).toBe(true);

    expect(await collectTombstones({ env, db: db() }, now + TOMBSTONE_HORIZON_MS + 1)).toContain(a.workspaceId);
    expect(await exists(gone)).toBe(false);
    expect(await sharesOf([gone])).toEqual([]);
    const queued = await db().select().from(jobNotifications).where(eq(jobNotifications.jobId, gone)).all();
    expect(queued).toEqual([]);
    expect(await exists(live)).toBe(true);
    expect(await exists(theirs)).toBe(true); // another workspace's, deleted after its write-down
  });

  it("deletes the customer links of finished jobs a day after they ended, keeping the jobs", async () => {
    const now = Date.now() + 1_000 * DAY; // ahead of every row's time
    const a = await userWithWorkspace();
    const ids = {
      completedLongAgo: await plannedJob(a.token),
      completedJustNow: await plannedJob(a.token),
      cancelled: await plannedJob(a.token),
      deleted: await plannedJob(a.token),
      open: await plannedJob(a.token),
    };
    for (const id of Object.values(ids)) await share(a.token, id);
    // the customer link lasts 7 days from now: only what happened to its job ends it earlier
    await db()
      .update(jobShares)
      .set({ expiresAt: now + DAY })
      .where(inArray(jobShares.jobId, Object.values(ids)));
    const set = (id: string, fields: Partial<typeof jobs.$inferInsert>) =>
      db().update(jobs).set(fields).where(eq(jobs.id, id));
    await set(ids.completedLongAgo, { status: "completed", completedAt: now - 2 * DAY });
    await set(ids.completedJustNow, { status: "completed", completedAt: now - 3_600_000 });
    await set(ids.cancelled, { status: "cancelled", updatedAt: now - 2 * DAY });
    await set(ids.deleted, { deleted: true, updatedAt: now - 2 * DAY });
    for (let run = 0; run < 50; run++) if (!(await runRetention(db(), now, 1_000)).job_shares) break;

    expect((await sharesOf(Object.values(ids))).sort()).toEqual([ids.completedJustNow, ids.open].sort());
    for (const id of Object.values(ids)) expect(await exists(id)).toBe(true);
  });
});
