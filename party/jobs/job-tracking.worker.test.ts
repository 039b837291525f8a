import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays, dayOf, startOfDay } from "../../shared/time-zone";
import { database } from "../../db/client";
import { jobs, workspaces } from "../../db/schema";
import { bumpVersion, versionOf } from "../../db/workspace-version";
import commute from "../../worker/fleet/fixtures/commute";
import { parseOsmandParams, type Report } from "../../domain/devices/osmand";
import { call, userWithWorkspace, workspaceWithBeacon, report } from "../../worker/test/factories";
import { ingest, roomOf } from "../../worker/test/ingest";
import type { WorkspaceRoom } from "../../worker/workspace-room";

// Jobs followed by the workspace's object as reports are folded (domain/jobs, docs/decisions/0055):
// status and stamps on the job's own D1 row, stamped with the write's version so pulls carry them.
const db = () => database(env.DB);
const RECORDED_START = Date.parse("2026-10-13T12:50:00Z");

/** The recorded commute moved to a stretch of one UTC day that has passed (today's or yesterday's). */
function commuteShift(): { shift: number; day: string } {
  const now = Date.now();
  let start = now - 50 * 60_000;
  if (dayOf(start, "UTC") !== dayOf(now, "UTC"))
    start = startOfDay(addDays(dayOf(now, "UTC"), -1), "UTC") + 12 * 3_600_000;
  return { shift: start - RECORDED_START, day: dayOf(start, "UTC") };
}

function commuteReports(deviceId: string, shift: number): Report[] {
  const [header, ...lines] = commute.trim().split("\n");
  const columns = header!.split(",");
  return lines.map((line) => {
    const params = Object.fromEntries(line.split(",").map((v, i) => [columns[i]!, v]));
    const r = parseOsmandParams({ id: deviceId, timestamp: params.time!, ...params });
    return { ...r, time: r.time + shift };
  });
}

async function insertJob(workspaceId: string, fields: Partial<typeof jobs.$inferInsert> & { date: string }) {
  const id = crypto.randomUUID();
  await db().batch([
    bumpVersion(db(), workspaceId),
    db()
      .insert(jobs)
      .values({
        id,
        workspaceId,
        number: Math.floor(Math.random() * 1e9),
        title: "Stop",
        latitude: 0,
        longitude: 0,
        radiusMeters: 100,
        version: versionOf(workspaceId),
        ...fields,
      }),
  ]);
  return id;
}

const jobsChanged = (workspaceId: string) =>
  runInDurableObject(roomOf(workspaceId), (room: WorkspaceRoom) => room.changed({ jobs: true, poke: false }));

async function drive(reports: Report[]) {
  for (let i = 0; i < reports.length; i += 10) await ingest(reports.slice(i, i + 10));
}

const jobRow = async (id: string) => (await db().select().from(jobs).where(eq(jobs.id, id)).get())!;
const COFFEE = { latitude: 41.88339, longitude: -87.64741 };
const HOME = { latitude: 41.9104, longitude: -87.6676 };

describe("jobs followed through ingestion", () => {
  it("writes arrival, completion and the next stop's progress to the jobs' rows, stamped for sync", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    const vehicleId = a.beacon.vehicleId;
    const coffee = await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 1, ...COFFEE });
    const home = await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 2, ...HOME, windowEnd: "23:59" });
    await drive(commuteReports(a.beacon.id, shift));

    const t = (iso: string) => Date.parse(iso) + shift;
    expect(await jobRow(coffee)).toMatchObject({
      status: "completed",
      enRouteAt: t("2026-10-13T13:01:00Z"),
      arrivedAt: t("2026-10-13T13:04:20Z"),
      departedAt: t("2026-10-13T13:12:00Z"),
      completedAt: t("2026-10-13T13:12:00Z"),
      eta: null,
    });
    const homeRow = await jobRow(home);
    expect(homeRow).toMatchObject({ status: "arrived", arrivedAt: t("2026-10-13T13:18:10Z"), eta: null });
    // stamped with the flush's version, after the job's own creation: an incremental pull carries it
    const ws = await db().select().from(workspaces).where(eq(workspaces.id, a.workspaceId)).get();
    expect(homeRow.version).toBeGreaterThan(homeRow.createdVersion!);
    expect(homeRow.version).toBeLessThanOrEqual(ws!.version);
  });

  it("never moves back a job the driver completed meanwhile (the flush keeps the row's further status)", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    const home = await insertJob(a.workspaceId, { date: day, vehicleId: a.beacon.vehicleId, sequence: 1, ...HOME });
    const reports = commuteReports(a.beacon.id, shift);
    await drive(reports.slice(0, 40));
    expect(await jobRow(home)).toMatchObject({ status: "en_route" });
    // the driver marks it done before the object hears of it
    await db().update(jobs).set({ status: "completed", completedAt: Date.now() }).where(eq(jobs.id, home));
    await drive(reports.slice(40));
    expect(await jobRow(home)).toMatchObject({ status: "completed", arrivedAt: null });
  });

  it("follows a job planned after the vehicle's day began once the object is told jobs changed", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    const reports = commuteReports(a.beacon.id, shift);
    await drive(reports.slice(0, 20));
    const home = await insertJob(a.workspaceId, { date: day, vehicleId: a.beacon.vehicleId, sequence: 1, ...HOME });
    await jobsChanged(a.workspaceId);
    await drive(reports.slice(20));
    expect(await jobRow(home)).toMatchObject({ status: "arrived" });
  });

  it("touches no job of another workspace, even one naming this workspace's vehicle", async () => {
    const a = await workspaceWithBeacon();
    const b = await userWithWorkspace();
    const { shift, day } = commuteShift();
    const theirs = await insertJob(b.workspaceId, { date: day, vehicleId: a.beacon.vehicleId, sequence: 1, ...HOME });
    const before = await jobRow(theirs);
    await jobsChanged(a.workspaceId);
    await drive(commuteReports(a.beacon.id, shift));
    expect(await jobRow(theirs)).toEqual(before);
  });

  it("writes nothing for a vehicle with no jobs that day", async () => {
    const a = await workspaceWithBeacon();
    const { day } = commuteShift();
    const other = await insertJob(a.workspaceId, { date: addDays(day, 3), vehicleId: a.beacon.vehicleId, ...HOME });
    const before = await jobRow(other);
    await ingest([report(a.beacon.id, Date.now() - 60_000, HOME)]);
    expect(await jobRow(other)).toEqual(before);
  });

  it("raises job_arrived, job_completed and job_late alerts into the Inbox for the rules that ask", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    for (const type of ["job_arrived", "job_completed", "job_late"]) {
      const res = await call("/api/alert-rules", { method: "POST", token: a.token, json: { type } });
      expect(res.status).toBe(201);
    }
    const vehicleId = a.beacon.vehicleId;
    await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 1, ...COFFEE });
    // its window closed before the day's first report: late as soon as its ETA is worked out
    await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 2, ...HOME, windowEnd: "00:00" });
    await drive(commuteReports(a.beacon.id, shift));
    const res = await call("/api/alerts?limit=50", { token: a.token });
    const { alerts: listed } = (await res.json()) as { alerts: { type: string; at: string }[] };
    const t = (iso: string) => new Date(Date.parse(iso) + shift).toISOString();
    expect(
      listed
        .filter((x) => x.type === "job_arrived")
        .map((x) => x.at)
        .sort(),
    ).toEqual([t("2026-10-13T13:04:20Z"), t("2026-10-13T13:18:10Z")]);
    expect(listed.filter((x) => x.type === "job_completed").map((x) => x.at)).toEqual([t("2026-10-13T13:12:00Z")]);
    expect(listed.filter((x) => x.type === "job_late")).toHaveLength(1);
  });
});
