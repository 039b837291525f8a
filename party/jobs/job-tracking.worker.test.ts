import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addDays, dayOf, startOfDay } from "../../shared/units/time-zone";
import { database } from "../../worker/test/db";
import { jobs, places, workspaces } from "../../db/schema";
import { bumpVersion, versionOf } from "../../worker/test/db";
import commute from "../../worker/fleet/fixtures/commute";
import { parseOsmandParams, type Report } from "../../domain/devices/osmand";
import { call, userWithWorkspace, workspaceWithBeacon, report } from "../../worker/test/factories";
import { pushMutations } from "../../worker/test/sync";
import { ingest, roomOf } from "../../worker/test/ingest";
import { insertJob as insertJobRow, type JobFields } from "../../worker/test/jobs";
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

const insertJob = (workspaceId: string, fields: JobFields) =>
  insertJobRow(workspaceId, { radiusMeters: 100, ...fields });

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
    const coffee = await insertJob(a.workspaceId, {
      date: day,
      vehicleId,
      sequence: 1,
      title: "Coffee run",
      ...COFFEE,
    });
    // its window closed before the day's first report: late as soon as its ETA is worked out
    await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 2, ...HOME, windowEnd: "00:00" });
    await drive(commuteReports(a.beacon.id, shift));
    const res = await call("/api/alerts?limit=50", { token: a.token });
    const { alerts: listed } = (await res.json()) as { alerts: { type: string; at: string; job: unknown }[] };
    const t = (iso: string) => new Date(Date.parse(iso) + shift).toISOString();
    expect(
      listed
        .filter((x) => x.type === "job_arrived")
        .map((x) => x.at)
        .sort(),
    ).toEqual([t("2026-10-13T13:04:20Z"), t("2026-10-13T13:18:10Z")]);
    expect(listed.filter((x) => x.type === "job_completed").map((x) => x.at)).toEqual([t("2026-10-13T13:12:00Z")]);
    expect(listed.filter((x) => x.type === "job_late")).toHaveLength(1);
    // each names its job as it was then: the Inbox, e-mail, webhook and push read it off the alert
    const completed = listed.find((x) => x.type === "job_completed")!;
    const { number } = await jobRow(coffee);
    expect(completed.job).toEqual({ id: coffee, number, title: "Coffee run" });
    expect(listed.every((x) => x.job !== null)).toBe(true);
  });

  it("arrives at a job at a polygon place when the vehicle enters the place's outline, as the place is now", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    // a yard 480 m deep west of Halsted whose east end is the coffee shop's lot (domain/jobs/area.ts)
    const ring = [
      [-87.653, 41.883],
      [-87.6472, 41.883],
      [-87.6472, 41.8837],
      [-87.653, 41.8837],
      [-87.653, 41.883],
    ];
    const placeId = crypto.randomUUID();
    await db().batch([
      bumpVersion(db(), a.workspaceId),
      db()
        .insert(places)
        .values({
          id: placeId,
          workspaceId: a.workspaceId,
          name: "Yard",
          // drawn first somewhere else: the plan the object reads holds this outline
          geometry: { type: "Circle", center: [-87.7, 41.95], radius: 100 },
          version: versionOf(a.workspaceId),
        }),
    ]);
    // the job heads for the place's mean vertex, 240 m west of where the van parks
    const centre = { latitude: 41.88335, longitude: -87.65184 };
    const yard = await insertJob(a.workspaceId, { date: day, vehicleId: a.beacon.vehicleId, placeId, ...centre });
    const reports = commuteReports(a.beacon.id, shift);
    await drive(reports.slice(0, 20));
    // redrawn before the van sets off: the object follows the place's new outline
    const geometry = { type: "Polygon", coordinates: [ring] };
    const res = await call(`/api/places/${placeId}`, { method: "PATCH", token: a.token, json: { geometry } });
    expect(res.status).toBe(200);
    await drive(reports.slice(20));
    const t = (iso: string) => Date.parse(iso) + shift;
    expect(await jobRow(yard)).toMatchObject({
      status: "completed",
      arrivedAt: t("2026-10-13T13:04:20Z"),
      completedAt: t("2026-10-13T13:12:00Z"),
    });
  });

  it("does not rewrite a crawling vehicle's jobs on every report: an ETA is written when it moves by a minute", async () => {
    const a = await workspaceWithBeacon();
    const day = dayOf(Date.now(), "UTC");
    const start = Math.max(startOfDay(day, "UTC"), Date.now() - 60 * 60_000);
    const vehicleId = a.beacon.vehicleId;
    // three stops 3 to 5 km north of a vehicle crawling north at 2 m/s, reporting every 5 s
    const ids = [];
    for (const [i, km] of [3, 4, 5].entries())
      ids.push(
        await insertJob(a.workspaceId, {
          date: day,
          vehicleId,
          sequence: i + 1,
          latitude: 40 + km / 111,
          longitude: -100,
        }),
      );
    const versions = new Map<string, number[]>(ids.map((id) => [id, []]));
    const REPORTS = 72; // six minutes
    for (let i = 0; i < REPORTS; i++) {
      const at = { latitude: 40 + (i * 10) / 111_000, longitude: -100, speed: 2 };
      await ingest([report(a.beacon.id, start + i * 5_000, at)]);
      const rows = await db().select({ id: jobs.id, version: jobs.version }).from(jobs).where(inArray(jobs.id, ids));
      for (const row of rows) versions.get(row.id)!.push(row.version);
    }
    const writes = (seen: number[]) => new Set(seen).size - 1;
    for (const id of ids) {
      const row = await jobRow(id);
      expect(row).toMatchObject({ status: id === ids[0] ? "en_route" : "scheduled" });
      expect(row.eta).not.toBeNull();
      // While the recent speed settles on the crawl (3 minutes) the ETA moves by minutes, written at
      // most every 15 s; then it holds and nothing is written: a handful of writes, not one per report.
      expect(writes(versions.get(id)!)).toBeLessThanOrEqual(REPORTS / 4);
      expect(writes(versions.get(id)!.slice(REPORTS / 2))).toBeLessThanOrEqual(1);
    }
  }, 60_000);

  it("keeps one stop en route when the planner moves another first mid-drive, on the rows and after every report", async () => {
    const a = await workspaceWithBeacon();
    const { shift, day } = commuteShift();
    const vehicleId = a.beacon.vehicleId;
    const coffee = await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 0, ...COFFEE });
    const home = await insertJob(a.workspaceId, { date: day, vehicleId, sequence: 1, ...HOME });
    const reports = commuteReports(a.beacon.id, shift);
    const enRoute = async () =>
      (
        await db()
          .select()
          .from(jobs)
          .where(inArray(jobs.id, [coffee, home]))
      ).filter((j) => j.status === "en_route");
    // driving west on Madison toward the coffee shop (13:02)
    const driving = reports.filter((r) => r.time < Date.parse("2026-10-13T13:02:10Z") + shift);
    await drive(driving);
    expect((await enRoute()).map((j) => j.id)).toEqual([coffee]);
    const moved = await pushMutations(a.token, [
      { name: "reorderJobs", args: { vehicleId, date: day, jobIds: [home, coffee] } },
    ]);
    expect(moved.refused ?? []).toEqual([]);
    // at once, before any report: home is the one en route, the coffee shop scheduled again
    expect((await enRoute()).map((j) => j.id)).toEqual([home]);
    expect(await jobRow(coffee)).toMatchObject({ status: "scheduled", enRouteAt: null });
    for (let i = driving.length; i < reports.length; i += 10) {
      await ingest(reports.slice(i, i + 10));
      expect((await enRoute()).length).toBeLessThanOrEqual(1);
    }
    // the coffee shop reached out of order (seven minutes there), home after it
    const t = (iso: string) => Date.parse(iso) + shift;
    expect(await jobRow(coffee)).toMatchObject({ status: "completed", arrivedAt: t("2026-10-13T13:04:20Z") });
    expect(await jobRow(home)).toMatchObject({ status: "arrived", arrivedAt: t("2026-10-13T13:18:10Z") });
  }, 60_000);

  it("keeps both visits of a vehicle back at a stop it had left, on the row and in the job's story", async () => {
    const a = await workspaceWithBeacon();
    // the commute and a return to the coffee shop (22 minutes more), all in the past of one UTC day
    const now = Date.now();
    let start = now - 75 * 60_000;
    if (dayOf(start, "UTC") !== dayOf(now, "UTC"))
      start = startOfDay(addDays(dayOf(now, "UTC"), -1), "UTC") + 12 * 3_600_000;
    const shift = start - RECORDED_START;
    const day = dayOf(start, "UTC");
    const coffee = await insertJob(a.workspaceId, {
      date: day,
      vehicleId: a.beacon.vehicleId,
      ...COFFEE,
      durationMinutes: 15,
      windowEnd: "00:01",
    });
    const reports = commuteReports(a.beacon.id, shift);
    const between = (from: string, to: string) =>
      reports.filter((r) => r.time >= Date.parse(from) + shift && r.time <= Date.parse(to) + shift);
    const retimed = (part: Report[], after: number) => part.map((r, i) => ({ ...r, time: after + (i + 1) * 30_000 }));
    const back = retimed(between("2026-10-13T13:11:50Z", "2026-10-13T13:17:50Z").reverse(), reports.at(-1)!.time);
    const parked = retimed(between("2026-10-13T13:05:20Z", "2026-10-13T13:11:20Z"), back.at(-1)!.time);
    const away = retimed(between("2026-10-13T13:11:50Z", "2026-10-13T13:13:50Z"), parked.at(-1)!.time);
    await drive([...reports, ...back, ...parked, ...away]);

    const row = await jobRow(coffee);
    const t = (iso: string) => Date.parse(iso) + shift;
    expect(row.visits).toHaveLength(2);
    expect(row.visits[0]).toEqual({ arrivedAt: t("2026-10-13T13:04:20Z"), departedAt: t("2026-10-13T13:12:00Z") });
    expect(row).toMatchObject({ status: "completed", arrivedAt: t("2026-10-13T13:04:20Z") });
    expect(row.departedAt).toBe(row.visits[1]!.departedAt);

    const res = await call(`/api/jobs/${coffee}`, { token: a.token });
    expect(res.status).toBe(200);
    const story = (await res.json()) as { visits: unknown[]; lateMinutes?: number; late: boolean };
    const iso = (ms: number | null) => new Date(ms!).toISOString();
    expect(story.visits).toEqual([
      { arrivedAt: iso(t("2026-10-13T13:04:20Z")), departedAt: iso(t("2026-10-13T13:12:00Z")) },
      { arrivedAt: iso(row.visits[1]!.arrivedAt), departedAt: iso(row.visits[1]!.departedAt) },
    ]);
    // reached at 13:04:20 (shifted) against a window closing at 00:01 that day
    expect(story.late).toBe(true);
    expect(story.lateMinutes).toBe(Math.ceil((t("2026-10-13T13:04:20Z") - (startOfDay(day, "UTC") + 60_000)) / 60_000));
  }, 60_000);
});
