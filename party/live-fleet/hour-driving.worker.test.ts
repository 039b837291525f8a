import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../worker/test/db";
import { workspaceHourDriving } from "../../db/schema";
import { HOUR_DRIVING_KEPT_DAYS, recordedDriving } from "../../db/recorded-driving";
import { learnedHourShape } from "../../domain/routing/street-travel";
import { addDays, dayOf } from "../../shared/units/time-zone";
import { report, userWithWorkspace, workspaceWithBeacons } from "../../worker/test/factories";
import { ingestRequests } from "../../worker/test/ingest";
import { runRetention } from "../../worker/retention";

// The workspace's driving by local hour (issue 54, docs/decisions/0097): each vehicle's hour of
// driving, once over, is added to its workspace's row by the object's flush; street travel learns
// the shape of the day from those rows, and from no other workspace's.
const db = () => database(env.DB);
const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * A beacon driving north at `speed` m/s through the whole (UTC) hour from `start`, a report every
 * 20 s, then standing a minute into the next hour (which hands the hour on).
 */
function drivenHour(deviceId: string, start: number, speed: number, longitude = -100) {
  const reports = [];
  for (let t = 0; t <= HOUR; t += 20_000)
    reports.push(
      report(deviceId, start + t, { latitude: 40 + (speed * t) / 1000 / 111_195, longitude, speed, ignition: true }),
    );
  const end = reports.at(-1)!;
  reports.push(
    report(deviceId, start + HOUR + 60_000, { latitude: end.latitude, longitude, speed: 0, ignition: false }),
  );
  return reports;
}

const rowsOf = (workspaceId: string) =>
  db().select().from(workspaceHourDriving).where(eq(workspaceHourDriving.workspaceId, workspaceId)).all();

describe("the workspace's driving by hour, through ingestion and the flush", () => {
  it("adds each vehicle's hour to its workspace's row, flush after flush, and never to another workspace's", async () => {
    const a = await workspaceWithBeacons(2);
    const b = await workspaceWithBeacons(1);
    // The hour that began two to three hours ago (workspaces are on UTC until they pick a zone).
    const start = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    // Workspace A's two vans drive the hour at 8 m/s, one request (and flush) after the other;
    // workspace B's van drives the same hour at 25 m/s.
    await ingestRequests([drivenHour(a.beacons[0]!.id, start, 8)]);
    await ingestRequests([drivenHour(a.beacons[1]!.id, start, 8, -100.5)]);
    await ingestRequests([drivenHour(b.beacons[0]!.id, start, 25)]);

    const day = dayOf(start, "UTC");
    const hour = new Date(start).getUTCHours();
    const ours = await rowsOf(a.workspaceId);
    expect(ours.map((r) => [r.day, r.hour])).toEqual([[day, hour]]);
    // Both vans' hours, added up: the second flush did not replace the first's.
    expect(ours[0]!.drivingSeconds).toBeGreaterThan(2 * 3_590);
    expect(ours[0]!.drivingSeconds).toBeLessThan(2 * 3_700);
    expect(ours[0]!.drivingMetres / ours[0]!.drivingSeconds).toBeCloseTo(8, 0);
    const theirs = await rowsOf(b.workspaceId);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.drivingMetres / theirs[0]!.drivingSeconds).toBeCloseTo(25, 0);

    // What the planner and the ETA learn from is the workspace's own driving only.
    const tomorrow = addDays(day, 1);
    const learned = await recordedDriving(db(), a.workspaceId, tomorrow);
    expect(learned!.hours).toEqual([{ hour, meters: ours[0]!.drivingMetres, drivingSeconds: ours[0]!.drivingSeconds }]);
    expect(learnedHourShape(learned!.hours)[hour]).toBeCloseTo(1, 6);
    const none = await workspaceWithBeacons(1);
    expect(await recordedDriving(db(), none.workspaceId, tomorrow)).toBeNull();
  });

  it("a van's hour folded again (the same reports sent twice) is added once", async () => {
    const a = await workspaceWithBeacons(1);
    const start = Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR;
    const reports = drivenHour(a.beacons[0]!.id, start, 10);
    await ingestRequests([reports]);
    await ingestRequests([reports]);
    const rows = await rowsOf(a.workspaceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.drivingSeconds).toBeLessThan(3_700);
  });

  it("keeps the learned window and a week; retention deletes older hour rows, a year's growth drained", async () => {
    const { workspaceId } = await userWithWorkspace();
    const now = Date.now();
    const today = dayOf(now, "UTC");
    const kept = addDays(today, -HOUR_DRIVING_KEPT_DAYS + 1);
    const old = [addDays(today, -HOUR_DRIVING_KEPT_DAYS - 1), addDays(today, -365)];
    await db()
      .insert(workspaceHourDriving)
      .values([kept, ...old].map((day) => ({ workspaceId, day, hour: 9, drivingMetres: 1000, drivingSeconds: 100 })));
    const deleted = await runRetention(db(), now + DAY / 2);
    expect(deleted.workspace_hour_driving).toBeGreaterThanOrEqual(2);
    const left = await db()
      .select({ day: workspaceHourDriving.day })
      .from(workspaceHourDriving)
      .where(and(eq(workspaceHourDriving.workspaceId, workspaceId)))
      .all();
    expect(left.map((r) => r.day)).toEqual([kept]);
  });
});
