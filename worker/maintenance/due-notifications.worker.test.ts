import { env } from "cloudflare:workers";
import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceSchedule } from "../../shared/maintenance/service";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "../test/db";
import { chunkRows } from "../../db/chunk";
import { alerts, emailOutbox, serviceSchedules, telemetry, users } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { objectAlarm } from "../test/ingest";
import { DUE_RECHECK_MS } from "../../party/due-notices/due-notice-task";
import { isDueCheckMinute, PER_WORKSPACE_PER_RUN } from "./due-notifications";
import { wakeWorkspacesWithDue } from "./due-notice-wake";

// Due notifications (docs/decisions/0032): one Inbox entry and one e-mail per manager for each
// period a schedule becomes due soon or overdue, never repeated. Written by each workspace's object
// as an alarm task, woken by the cron's quarter-hour query (docs/decisions/0066): the tests run that wake.
const db = () => database(env.DB);
const checkDue = (now = Date.now()) => wakeWorkspacesWithDue(db(), env, now);

async function fleetWithSchedule(miles: number, schedule: Record<string, unknown>) {
  const a = await userWithWorkspace();
  const admin = await memberWithRole(a.workspaceId, "admin");
  const member = await memberWithRole(a.workspaceId, "member");
  const name = `Van ${crypto.randomUUID().slice(0, 6)}`;
  const vehicleId = await insertVehicle(a.workspaceId, { name });
  await db()
    .insert(telemetry)
    .values({
      id: vehicleId,
      workspaceId: a.workspaceId,
      vehicleId,
      status: "off",
      statusTimestamp: 0,
      latitude: 41.88,
      longitude: -87.63,
      odometer: miles * METRES_PER_MILE,
      recordedAt: Date.now(),
      version: 0,
    });
  const res = await call("/api/service-schedules", {
    method: "POST",
    token: a.token,
    json: { vehicleId, name: "Oil change", ...schedule },
  });
  expect(res.status).toBe(201);
  return { ...a, admin, member, name, vehicleId, schedule: (await res.json()) as ServiceSchedule };
}

const inboxOf = (workspaceId: string) => db().select().from(alerts).where(eq(alerts.workspaceId, workspaceId)).all();
const mailsAbout = (name: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(like(emailOutbox.text, `${name}:%`))
    .all();
const setOdometer = (vehicleId: string, miles: number) =>
  db()
    .update(telemetry)
    .set({ odometer: miles * METRES_PER_MILE })
    .where(eq(telemetry.vehicleId, vehicleId));

describe("due notifications", () => {
  it("announce a schedule that became due soon once, then once more when it is overdue, to owners and admins", async () => {
    const f = await fleetWithSchedule(14_600, { everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    await checkDue();
    await checkDue();
    let inbox = await inboxOf(f.workspaceId);
    expect(inbox.map((a) => [a.type, a.ruleId, a.vehicleId])).toEqual([
      ["service_due_soon", f.schedule.id, f.vehicleId],
    ]);
    let mails = await mailsAbout(f.name);
    // The names members typed are in the body only (issue 39).
    expect(mails.map((m) => [m.subject, m.text.split(" (")[0]])).toEqual([
      ["Service due soon on a vehicle", `${f.name}: Oil change is due soon`],
      ["Service due soon on a vehicle", `${f.name}: Oil change is due soon`],
    ]);
    expect(mails.map((m) => m.to).sort()).toEqual([f.admin.email, await ownerEmail(f.userId)].sort());
    expect(mails[0]!.text).toContain(`/vehicles/${f.vehicleId}/service`);

    await setOdometer(f.vehicleId, 15_010);
    await checkDue();
    await checkDue();
    inbox = await inboxOf(f.workspaceId);
    expect(inbox.map((a) => a.type).sort()).toEqual(["service_due_soon", "service_overdue"]);
    mails = await mailsAbout(f.name);
    expect(mails.filter((m) => m.subject === "Service overdue on a vehicle")).toHaveLength(2);
  });

  it("announce a schedule found overdue once, as overdue only, and again in the next period after a service restarts it", async () => {
    const f = await fleetWithSchedule(100, {
      everyDays: 30,
      lastDoneAt: new Date(Date.now() - 45 * 86_400_000).toISOString(),
    });
    await checkDue();
    expect((await inboxOf(f.workspaceId)).map((a) => a.type)).toEqual(["service_overdue"]);

    const today = new Date().toISOString().slice(0, 10);
    const entry = await call("/api/service-entries", {
      method: "POST",
      token: f.member.token,
      json: { vehicleId: f.vehicleId, date: today, scheduleIds: [f.schedule.id] },
    });
    expect(entry.status).toBe(201);
    await checkDue();
    expect(await inboxOf(f.workspaceId)).toHaveLength(1);
    // the new period: 28 days later it is due soon, announced again once
    await checkDue(Date.now() + 28 * 86_400_000);
    await checkDue(Date.now() + 28 * 86_400_000);
    expect((await inboxOf(f.workspaceId)).map((a) => a.type).sort()).toEqual(["service_due_soon", "service_overdue"]);
  });

  it("announce a schedule whose interval was edited afresh, and a deleted schedule never again", async () => {
    const f = await fleetWithSchedule(14_600, { everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    await checkDue();
    expect((await inboxOf(f.workspaceId)).map((a) => a.type)).toEqual(["service_due_soon"]);
    const path = `/api/service-schedules/${f.schedule.id}`;
    // longer: not due any more, then due soon again for the new interval, said once more
    expect((await call(path, { method: "PATCH", token: f.admin.token, json: { everyMiles: 10_000 } })).status).toBe(
      200,
    );
    await checkDue();
    expect(await inboxOf(f.workspaceId)).toHaveLength(1);
    await setOdometer(f.vehicleId, 19_500);
    await checkDue();
    await checkDue();
    expect((await inboxOf(f.workspaceId)).map((a) => a.type)).toEqual(["service_due_soon", "service_due_soon"]);

    // deleted: it would be overdue now, and nobody is told
    expect((await call(path, { method: "DELETE", token: f.token })).status).toBe(204);
    await setOdometer(f.vehicleId, 30_000);
    await checkDue();
    expect(await inboxOf(f.workspaceId)).toHaveLength(2);
  });

  it("leave a schedule that is not due alone", async () => {
    const f = await fleetWithSchedule(11_000, { everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    await checkDue();
    expect(await inboxOf(f.workspaceId)).toEqual([]);
    expect(await mailsAbout(f.name)).toEqual([]);
  });

  it("give each workspace its turn: one with 600 due schedules does not take the run from another's one (issue 39, 7b)", async () => {
    const busy = await userWithWorkspace();
    const vehicleId = await insertVehicle(busy.workspaceId, { name: "Bus" });
    const DAY = 86_400_000;
    // Due for longer than the quiet fleet's schedule, and written first: a global batch took these.
    const rows = Array.from({ length: 600 }, (_, i) => ({
      id: crypto.randomUUID(),
      workspaceId: busy.workspaceId,
      version: 0,
      vehicleId,
      name: `Check ${i}`,
      everyDays: 30,
      lastDoneAt: Date.now() - 90 * DAY,
    }));
    for (const part of chunkRows(rows, 10)) await db().insert(serviceSchedules).values(part);
    const quiet = await fleetWithSchedule(1_000, { everyDays: 30, lastDoneAt: today(-40) });

    const now = Date.now();
    await checkDue(now);
    expect((await inboxOf(quiet.workspaceId)).map((a) => a.type)).toEqual(["service_overdue"]);
    expect(await inboxOf(busy.workspaceId)).toHaveLength(PER_WORKSPACE_PER_RUN);
    // the busy fleet's object checks again on its own alarm, a quarter hour later
    expect(await objectAlarm(busy.workspaceId)).toBeLessThanOrEqual(now + DUE_RECHECK_MS);
    // the busy fleet's rest comes in the next runs
    await checkDue();
    expect(await inboxOf(busy.workspaceId)).toHaveLength(2 * PER_WORKSPACE_PER_RUN);
  });

  it("run every quarter hour of the minute cron", () => {
    expect(isDueCheckMinute(Date.UTC(2026, 0, 1, 8, 15))).toBe(true);
    expect(isDueCheckMinute(Date.UTC(2026, 0, 1, 8, 16))).toBe(false);
  });
});

const today = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function ownerEmail(userId: string) {
  return (await db().select().from(users).where(eq(users.id, userId)).get())!.email;
}
