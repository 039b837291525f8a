import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addDays } from "../../shared/units/time-zone";
import { database } from "../../worker/test/db";
import { workspaceHourDriving } from "../../db/schema";
import type { AcceptedFix, FleetModule, FlushRow } from "../../domain/fold/fold";
import { JOB_PROGRESS_TABLE } from "../../domain/jobs/module";
import { workspaceWithBeacon } from "../../worker/test/factories";
import { insertJob } from "../../worker/test/jobs";
import { DayPlans } from "./day-plans";

// The live ETA on the workspace's own shape of a day (docs/decisions/0097): the object reads the
// workspace's driving by hour with its day of jobs, and no other workspace's driving shapes it.
const db = () => database(env.DB);
const DAY = "2026-10-20";
/** 11:00 on the workspace's clock (UTC: workspaces are on UTC until they pick a zone). */
const NOW = Date.parse(`${DAY}T11:00:00Z`);
const HERE = { latitude: 41.8781, longitude: -87.6298 };

/** 10 days of driving by hour, 6:00-19:00, at 10 m/s, but `slow` m/s in the hours `slowHours`. */
async function drove(workspaceId: string, slowHours: readonly number[], slow: number) {
  const rows = [];
  for (let d = 1; d <= 10; d++)
    for (let hour = 6; hour < 20; hour++) {
      const speed = slowHours.includes(hour) ? slow : 10;
      rows.push({ workspaceId, day: addDays(DAY, -d), hour, drivingMetres: speed * 3_000, drivingSeconds: 3_000 });
    }
  // D1 binds 100 values a statement: 14 hours of 5 columns a day
  for (let i = 0; i < rows.length; i += 14)
    await db()
      .insert(workspaceHourDriving)
      .values(rows.slice(i, i + 14));
}

/**
 * The second stop's leg as the tracker times it at 11:00: the first stop opens at 17:00, so the
 * leg to the second departs at 17:05, in the default shape's evening rush.
 */
async function eveningLeg(a: { workspaceId: string; beacon: { vehicleId: string } }) {
  const { workspaceId } = a;
  const vehicleId = a.beacon.vehicleId;
  const base = { date: DAY, vehicleId, durationMinutes: 5, longitude: HERE.longitude };
  const first = await insertJob(workspaceId, { ...base, sequence: 1, latitude: 41.8961, windowStart: "17:00" });
  const second = await insertJob(workspaceId, { ...base, sequence: 2, latitude: 41.9141 });
  const [module] = (await new DayPlans(workspaceId, db).modules(NOW, "UTC", [])) as FleetModule[];
  const fix = { time: NOW, ...HERE, speed: 10, heading: null, accuracy: 5, ignition: true, fuel: null, odometer: null };
  const accepted = { fix, vehicleId, workspaceId, before: null, after: {}, events: [], timeZone: "UTC" };
  const { rows = [] } = module!.step(undefined, accepted as unknown as AcceptedFix, NOW);
  const eta = (id: string) =>
    Number(rows.find((r: FlushRow) => r.table === JOB_PROGRESS_TABLE && r.row.id === id)!.row.eta);
  return eta(second) - (Math.max(eta(first), Date.parse(`${DAY}T17:00:00Z`)) + 5 * 60_000);
}

describe("the live ETA on the workspace's learned hours", () => {
  it("times a leg by the hours its own fleet drove, not by another workspace's nor the default rush", async () => {
    const fresh = await workspaceWithBeacon();
    const flat = await workspaceWithBeacon();
    const jammed = await workspaceWithBeacon();
    // This fleet drives its evenings as fast as its noons; another's crawls at 17:00.
    await drove(flat.workspaceId, [], 10);
    await drove(jammed.workspaceId, [17], 3);

    const byDefault = await eveningLeg(fresh);
    const learned = await eveningLeg(flat);
    // The default shape's 17:00 is ×0.75 of 11:00; this fleet's is ×1.
    expect(learned).toBeCloseTo(byDefault * 0.75, -3);
    // Another workspace's jam at 17:00 is not this one's: its own leg is far slower (3 m/s against
    // 10, kept at the learned floor of ×0.4).
    expect(await eveningLeg(jammed)).toBeGreaterThan(1.5 * byDefault);
  });
});
