import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { pullPatch } from "../test/sync";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "../test/db";
import { inspections, serviceEntries, telemetry } from "../../db/schema";
import type { Env } from "../env";
import { commitWorkspaceWrite } from "../workspace-object";
import { wakeWorkspacesWithDue } from "../maintenance/due-notice-wake";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

// Service schedules, inspection forms and a recent window of service entries and inspections in
// the synced store (docs/decisions/0033).
type Patch = { op: string; key?: string; value?: Record<string, unknown> }[];
const db = () => database(env.DB);
const DAY = 86_400_000;
const allPass = DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true }));
const dayAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);

const pull = (token: string, cookie: unknown = null) => pullPatch<Patch>(token, cookie);
const put = (patch: Patch, key: string) => patch.find((p) => p.op === "put" && p.key === key)?.value;
const keysOf = (patch: Patch, prefix: string) =>
  patch.filter((p) => p.op === "put" && p.key?.startsWith(prefix)).map((p) => p.key!);

async function post<T>(token: string, path: string, json: unknown): Promise<T> {
  const res = await call(path, { method: "POST", token, json });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

/** A workspace with a vehicle at 14,600 mi, an oil change due soon, the default form, and history old and new. */
async function maintainedFleet() {
  const a = await userWithWorkspace();
  const vehicleId = await insertVehicle(a.workspaceId);
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
      odometer: 14_600 * METRES_PER_MILE,
      recordedAt: Date.now(),
      version: 0,
    });
  const oil = await post<{ id: string }>(a.token, "/api/service-schedules", {
    vehicleId,
    name: "Oil change",
    everyMiles: 5000,
    lastDoneOdometerMiles: 10_000,
  });
  const recent = await post<{ id: string }>(a.token, "/api/service-entries", {
    vehicleId,
    date: dayAgo(10),
    description: "Tyres rotated",
    costCents: 4500,
    vendor: "Joe's",
  });
  const old = await post<{ id: string }>(a.token, "/api/service-entries", {
    vehicleId,
    date: dayAgo(200),
    description: "Old brake pads",
  });
  const today = await post<{ id: string }>(a.token, "/api/inspections", {
    formId: defaultFormId(a.workspaceId),
    vehicleId,
    signedName: "Sam Driver",
    results: allPass,
  });
  const lastMonth = await post<{ id: string }>(a.token, "/api/inspections", {
    formId: defaultFormId(a.workspaceId),
    vehicleId,
    signedName: "Sam Driver",
    results: allPass,
    submittedAt: new Date(Date.now() - 20 * DAY).toISOString(),
  });
  return { ...a, vehicleId, oil, recent, old, today, lastMonth };
}

describe("maintenance in the synced store", () => {
  it("a first sync carries schedules, forms, recent entries and inspections; older history stays on the server", async () => {
    const f = await maintainedFleet();
    const first = await pull(f.token);
    expect(put(first.patch, `service-schedule/${f.oil.id}`)).toEqual({
      v: f.vehicleId,
      n: "Oil change",
      mi: 5000,
      om: 10_000,
      at: expect.any(Number),
    });
    expect(put(first.patch, `inspection-form/${defaultFormId(f.workspaceId)}`)).toMatchObject({
      n: "Pre-trip inspection",
      df: 1,
    });
    expect(put(first.patch, `service-entry/${f.recent.id}`)).toEqual({
      v: f.vehicleId,
      d: dayAgo(10),
      x: "Tyres rotated",
      c: 4500,
      vn: "Joe's",
      t: expect.any(Number),
    });
    expect(put(first.patch, `inspection/${f.today.id}`)).toEqual({
      v: f.vehicleId,
      f: defaultFormId(f.workspaceId),
      s: "Sam Driver",
      b: f.userId,
      t: expect.any(Number),
    });
    expect(keysOf(first.patch, "service-entry/")).toEqual([`service-entry/${f.recent.id}`]);
    expect(keysOf(first.patch, "inspection/")).toEqual([`inspection/${f.today.id}`]);
  });

  it("brings edits, new entries (old ones too) and deletions incrementally", async () => {
    const f = await maintainedFleet();
    const first = await pull(f.token);
    // logging service restarts the schedule: both arrive; history typed in late arrives too
    const done = await post<{ id: string }>(f.token, "/api/service-entries", {
      vehicleId: f.vehicleId,
      date: dayAgo(0),
      odometerMiles: 14_600,
      scheduleIds: [f.oil.id],
    });
    const late = await post<{ id: string }>(f.token, "/api/service-entries", {
      vehicleId: f.vehicleId,
      date: dayAgo(400),
      description: "Typed in late",
    });
    const second = await pull(f.token, first.cookie);
    expect(put(second.patch, `service-schedule/${f.oil.id}`)).toMatchObject({ om: 14_600 });
    expect(put(second.patch, `service-entry/${done.id}`)).toMatchObject({ sc: [f.oil.id] });
    expect(put(second.patch, `service-entry/${late.id}`)).toMatchObject({ x: "Typed in late" });
    expect(keysOf(second.patch, "service-entry/").sort()).toEqual(
      [`service-entry/${done.id}`, `service-entry/${late.id}`].sort(),
    );

    // a removed entry and inspection are deleted from the device
    const w = { env: env as unknown as Env, db: db(), waitUntil: () => {} };
    await commitWorkspaceWrite(
      w,
      f.workspaceId,
      (stamp) => [
        db().update(serviceEntries).set({ deleted: true, version: stamp }).where(eq(serviceEntries.id, f.recent.id)),
        db().update(inspections).set({ deleted: true, version: stamp }).where(eq(inspections.id, f.today.id)),
      ],
      { readYourWrites: true },
    );
    const third = await pull(f.token, second.cookie);
    expect(third.patch).toEqual(
      expect.arrayContaining([
        { op: "del", key: `service-entry/${f.recent.id}` },
        { op: "del", key: `inspection/${f.today.id}` },
      ]),
    );
  });

  it("carries what the server announced, so a device knows a schedule due by engine hours", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId, { engineSeconds: 240 * 3600 });
    const hours = await post<{ id: string }>(a.token, "/api/service-schedules", {
      vehicleId,
      name: "Hydraulics",
      everyEngineHours: 250,
      lastDoneEngineHours: 0,
    });
    const first = await pull(a.token);
    expect(put(first.patch, `service-schedule/${hours.id}`)).not.toHaveProperty("an");
    await wakeWorkspacesWithDue(db(), env);
    const next = await pull(a.token, first.cookie);
    expect(put(next.patch, `service-schedule/${hours.id}`)).toMatchObject({ an: 1 });
  });

  it("never carries another workspace's maintenance; viewers read it", async () => {
    const f = await maintainedFleet();
    const b = await userWithWorkspace();
    const theirs = await pull(b.token);
    const keys = theirs.patch.map((p) => p.key ?? "");
    for (const id of [f.oil.id, f.recent.id, f.today.id, defaultFormId(f.workspaceId)])
      expect(keys.some((k) => k.endsWith(id))).toBe(false);
    const viewer = await memberWithRole(f.workspaceId, "viewer");
    const seen = await pull(viewer.token);
    expect(keysOf(seen.patch, "service-schedule/")).toEqual([`service-schedule/${f.oil.id}`]);
    expect(keysOf(seen.patch, "inspection/")).toEqual([`inspection/${f.today.id}`]);
  });
});

describe("the first sync's cost of maintenance", () => {
  it("grows by under 200 B per schedule and per recent entry (two UUIDs are 72 of them); entries older than 90 days cost nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const size = async () => JSON.stringify(await pull(a.token)).length;
    const before = await size();
    for (let i = 0; i < 10; i++)
      await post(a.token, "/api/service-schedules", {
        vehicleId,
        name: `Oil change ${i}`,
        everyMiles: 5000,
        everyDays: 180,
      });
    const afterSchedules = await size();
    for (let i = 0; i < 10; i++)
      await post(a.token, "/api/service-entries", {
        vehicleId,
        date: dayAgo(5),
        description: `Oil and filter ${i}`,
        costCents: 8950,
      });
    const afterEntries = await size();
    for (let i = 0; i < 10; i++)
      await post(a.token, "/api/service-entries", { vehicleId, date: dayAgo(120), description: `Old service ${i}` });
    const perSchedule = (afterSchedules - before) / 10;
    const perEntry = (afterEntries - afterSchedules) / 10;
    console.log(`first sync: ${perSchedule} B per schedule, ${perEntry} B per recent service entry`);
    expect(perSchedule).toBeLessThanOrEqual(200);
    expect(perEntry).toBeLessThanOrEqual(200);
    expect(await size()).toBe(afterEntries);
  });
});
