import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { inspectionKey, serviceEntryKey, serviceScheduleKey } from "../../shared/sync/maintenance-sync";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { database } from "../test/db";
import { inspections, photos, serviceEntries, serviceSchedules } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { insertIssue, issueRow } from "../test/issues";
import { pushMutations as push, firstPull } from "../test/sync";
import { serviceScheduleWrites } from "../maintenance/service-writes";

/**
 * "Log service", "Add schedule", editing and deleting schedules and entries, and inspections pushed through sync (shared/maintenance/service-mutators.ts,
 * shared/maintenance/inspection-mutators.ts), as a browser that was offline sends them.
 */

async function pulledKeys(token: string) {
  const res = await firstPull(token);
  const body = (await res.json()) as { patch: { op: string; key: string; value?: Record<string, unknown> }[] };
  return new Map(body.patch.filter((p) => p.op === "put").map((p) => [p.key, p.value]));
}

/** A schedule written as the REST route writes one. */
async function insertSchedule(
  workspaceId: string,
  vehicleId: string,
  fields: { everyMiles?: number; everyDays?: number; lastDoneOdometerMiles?: number },
) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  const { writes } = await serviceScheduleWrites(
    db,
    workspaceId,
    { vehicleId, name: "Oil change", ...fields },
    { id, now: Date.now() },
  );
  await db.batch([bumpVersion(db, workspaceId), ...writes(versionOf(workspaceId))]);
  return id;
}

const entryRow = (id: string) => database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.id, id)).get();
const scheduleRow = (id: string) =>
  database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, id)).get();
const entriesOf = (workspaceId: string) =>
  database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.workspaceId, workspaceId)).all();
const today = () => new Date().toISOString().slice(0, 10);

describe("logging service through sync", () => {
  it("applies a member's entry as the REST route would: the schedule restarts, the issue resolves, the entry arrives in a pull", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 15_200);
    const oil = await insertSchedule(a.workspaceId, vehicleId, { everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    const issue = await insertIssue(a.workspaceId, { vehicleId, title: "Oil leak" });
    const id = crypto.randomUUID();
    const answer = await push(member.token, [
      {
        name: "logServiceEntry",
        args: {
          id,
          vehicleId,
          date: today(),
          odometerMiles: 15_150,
          description: "Oil and filter",
          costCents: 8950,
          vendor: "Quick Lube",
          scheduleIds: [oil],
          resolvesIssueIds: [issue.id],
          createdAt: 1,
        },
      },
    ]);
    expect(answer.refused).toBeUndefined();
    expect(await entryRow(id)).toMatchObject({
      workspaceId: a.workspaceId,
      vehicleId,
      description: "Oil and filter",
      costCents: 8950,
      scheduleIds: [oil],
      resolvesIssueIds: [issue.id],
      createdByUserId: member.userId,
    });
    // the server's time, not the browser's claim
    expect((await entryRow(id))!.createdAt).toBeGreaterThan(1);
    expect(await scheduleRow(oil)).toMatchObject({ lastDoneOdometerMiles: 15_150, cycle: 1, announced: null });
    expect(await issueRow(issue.id)).toMatchObject({ status: "resolved", resolvedByServiceEntryId: id });

    const pulled = await pulledKeys(a.token);
    expect(pulled.get(serviceEntryKey(id))).toMatchObject({ v: vehicleId, x: "Oil and filter", c: 8950 });
    expect(pulled.get(serviceScheduleKey(oil))).toMatchObject({ om: 15_150 });
  });

  it("refuses a viewer's entry by its role, and the REST route's bad fields, writing nothing", async () => {
    const a = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const other = await vehicleWithOdometer(a.workspaceId, 100);
    const othersSchedule = await insertSchedule(a.workspaceId, other, { everyDays: 30 });
    const refused = await push(viewer.token, [
      { name: "logServiceEntry", args: { id: crypto.randomUUID(), vehicleId, date: today() } },
    ]);
    expect(refused.refused).toEqual([
      expect.objectContaining({ name: "logServiceEntry", message: expect.stringMatching(/view-only/) }),
    ]);

    const tomorrowPlus = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const answer = await push(a.token, [
      { name: "logServiceEntry", args: { id: crypto.randomUUID(), vehicleId, date: tomorrowPlus } },
      { name: "logServiceEntry", args: { id: crypto.randomUUID(), vehicleId, date: "2026-02-30" } },
      { name: "logServiceEntry", args: { id: crypto.randomUUID(), vehicleId, date: today(), costCents: -5 } },
      {
        name: "logServiceEntry",
        args: { id: crypto.randomUUID(), vehicleId, date: today(), scheduleIds: [othersSchedule] },
      },
      { name: "logServiceEntry", args: { id: crypto.randomUUID(), vehicleId } },
    ]);
    // refused for what they say, each with the server's reason for the browser's toast (issue 39)
    expect(answer.refused?.map((r) => r.name)).toEqual(Array(5).fill("logServiceEntry"));
    expect(answer.refused?.map((r) => r.message)).not.toContain(expect.stringMatching(/view-only|role/));
    expect(await entriesOf(a.workspaceId)).toEqual([]);
    expect(await scheduleRow(othersSchedule)).toMatchObject({ cycle: 0 });
  });

  it("refuses another workspace's vehicle, schedule, issue, photo or entry id, writing nothing (not even the parts that were its own)", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const myOil = await insertSchedule(a.workspaceId, mine, { everyDays: 30 });
    const myIssue = await insertIssue(a.workspaceId, { vehicleId: mine });
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const theirOil = await insertSchedule(b.workspaceId, theirs, { everyDays: 30 });
    const theirIssue = await insertIssue(b.workspaceId, { vehicleId: theirs });
    const theirPhoto = crypto.randomUUID();
    await database(env.DB)
      .insert(photos)
      .values({ id: theirPhoto, workspaceId: b.workspaceId, contentType: "image/png", size: 10 });
    const theirEntry = crypto.randomUUID();
    expect(
      (await push(b.token, [{ name: "logServiceEntry", args: { id: theirEntry, vehicleId: theirs, date: today() } }]))
        .refused,
    ).toBeUndefined();

    const entry = (fields: Record<string, unknown>) => ({
      name: "logServiceEntry",
      args: { id: crypto.randomUUID(), vehicleId: mine, date: today(), scheduleIds: [myOil], ...fields },
    });
    await push(a.token, [
      entry({ vehicleId: theirs, scheduleIds: [] }),
      entry({ vehicleId: theirs, scheduleIds: [theirOil] }),
      entry({ scheduleIds: [myOil, theirOil] }),
      entry({ resolvesIssueIds: [myIssue.id, theirIssue.id] }),
      entry({ photoIds: [theirPhoto] }),
      entry({ id: theirEntry }),
      {
        name: "createServiceSchedule",
        args: { id: crypto.randomUUID(), vehicleId: theirs, name: "Take over", everyDays: 10 },
      },
      { name: "createServiceSchedule", args: { id: theirOil, vehicleId: mine, name: "Take over", everyDays: 10 } },
    ]);
    expect(await entriesOf(a.workspaceId)).toEqual([]);
    expect(await scheduleRow(myOil)).toMatchObject({ cycle: 0 });
    expect(await issueRow(myIssue.id)).toMatchObject({ status: "open" });
    expect(await scheduleRow(theirOil)).toMatchObject({ workspaceId: b.workspaceId, name: "Oil change", cycle: 0 });
    expect(await issueRow(theirIssue.id)).toMatchObject({ status: "open" });
    expect(await entryRow(theirEntry)).toMatchObject({ workspaceId: b.workspaceId });
    const aSchedules = await database(env.DB)
      .select()
      .from(serviceSchedules)
      .where(eq(serviceSchedules.workspaceId, a.workspaceId))
      .all();
    expect(aSchedules.map((s) => s.id)).toEqual([myOil]);
  });

  it("applies a replayed entry once", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const args = { id: crypto.randomUUID(), vehicleId, date: today(), description: "Wipers" };
    await push(a.token, [{ name: "logServiceEntry", args }]);
    await push(a.token, [{ name: "logServiceEntry", args: { ...args, description: "Changed on replay" } }]);
    expect(await entriesOf(a.workspaceId)).toEqual([expect.objectContaining({ description: "Wipers" })]);
  });
});

describe("adding a schedule through sync", () => {
  it("applies an owner's or admin's schedule, counted from the vehicle's odometer, and a pull carries it", async () => {
    const a = await userWithWorkspace();
    const admin = await memberWithRole(a.workspaceId, "admin");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 12_000);
    const id = crypto.randomUUID();
    const answer = await push(admin.token, [
      { name: "createServiceSchedule", args: { id, vehicleId, name: "Tyre rotation", everyMiles: 6000 } },
    ]);
    expect(answer.refused).toBeUndefined();
    expect(await scheduleRow(id)).toMatchObject({
      workspaceId: a.workspaceId,
      name: "Tyre rotation",
      everyMiles: 6000,
      lastDoneOdometerMiles: 12_000,
      cycle: 0,
    });
    expect((await pulledKeys(a.token)).get(serviceScheduleKey(id))).toMatchObject({
      n: "Tyre rotation",
      mi: 6000,
      om: 12_000,
    });
  });

  it("refuses members and viewers by their role, and a schedule without an interval or last done in the future", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    for (const role of ["member", "viewer"]) {
      const person = await memberWithRole(a.workspaceId, role);
      const answer = await push(person.token, [
        { name: "createServiceSchedule", args: { id: crypto.randomUUID(), vehicleId, name: "Oil", everyDays: 30 } },
      ]);
      expect(answer.refused).toEqual([expect.objectContaining({ name: "createServiceSchedule" })]);
    }
    const nextYear = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    await push(a.token, [
      { name: "createServiceSchedule", args: { id: crypto.randomUUID(), vehicleId, name: "No interval" } },
      {
        name: "createServiceSchedule",
        args: { id: crypto.randomUUID(), vehicleId, name: "Later", everyDays: 30, lastDoneAt: nextYear },
      },
      { name: "createServiceSchedule", args: { id: crypto.randomUUID(), vehicleId, name: "", everyDays: 30 } },
    ]);
    expect(
      await database(env.DB)
        .select()
        .from(serviceSchedules)
        .where(eq(serviceSchedules.workspaceId, a.workspaceId))
        .all(),
    ).toEqual([]);
  });
});

/** The patch of a pull after `push`, from a device that pulled before it: what it is told to put and drop. */
async function incrementalPatch(token: string, push: () => Promise<unknown>) {
  const pull = async (cookie: unknown) =>
    (await (
      await call("/api/sync/pull", {
        method: "POST",
        token,
        json: { pullVersion: 1, clientGroupID: group, cookie, profileID: "p", schemaVersion: SCHEMA_VERSION },
      })
    ).json()) as { cookie: unknown; patch: { op: string; key: string; value?: Record<string, unknown> }[] };
  const group = crypto.randomUUID();
  const first = await pull(null);
  await push();
  return (await pull(first.cookie)).patch;
}

describe("managing schedules and entries through sync", () => {
  it("applies an owner's edit and deletes; an incremental pull carries the edit and tells devices to drop the deleted", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 14_600);
    const oil = await insertSchedule(a.workspaceId, vehicleId, { everyMiles: 5000, lastDoneOdometerMiles: 10_000 });
    const tyres = await insertSchedule(a.workspaceId, vehicleId, { everyDays: 30 });
    const entry = crypto.randomUUID();
    await push(a.token, [{ name: "logServiceEntry", args: { id: entry, vehicleId, date: today() } }]);
    const patch = await incrementalPatch(a.token, async () => {
      const answer = await push(a.token, [
        { name: "updateServiceSchedule", args: { id: oil, name: "Synthetic oil", everyMiles: 4000 } },
        { name: "deleteServiceSchedule", args: { id: tyres } },
        { name: "deleteServiceEntry", args: { id: entry } },
      ]);
      expect(answer.refused).toBeUndefined();
    });
    expect(await scheduleRow(oil)).toMatchObject({
      name: "Synthetic oil",
      everyMiles: 4000,
      lastDoneOdometerMiles: 10_000,
      cycle: 1,
    });
    expect(await scheduleRow(tyres)).toMatchObject({ deleted: true });
    expect(await entryRow(entry)).toMatchObject({ deleted: true });
    expect(patch).toEqual(
      expect.arrayContaining([
        { op: "put", key: serviceScheduleKey(oil), value: expect.objectContaining({ n: "Synthetic oil", mi: 4000 }) },
        { op: "del", key: serviceScheduleKey(tyres) },
        { op: "del", key: serviceEntryKey(entry) },
      ]),
    );
  });

  it("refuses members and viewers by their role, writing nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const oil = await insertSchedule(a.workspaceId, vehicleId, { everyDays: 30 });
    const entry = crypto.randomUUID();
    await push(a.token, [{ name: "logServiceEntry", args: { id: entry, vehicleId, date: today() } }]);
    for (const role of ["member", "viewer"]) {
      const person = await memberWithRole(a.workspaceId, role);
      const answer = await push(person.token, [
        { name: "updateServiceSchedule", args: { id: oil, everyDays: 7 } },
        { name: "deleteServiceSchedule", args: { id: oil } },
        { name: "deleteServiceEntry", args: { id: entry } },
      ]);
      expect(answer.refused?.map((r) => r.name)).toEqual([
        "updateServiceSchedule",
        "deleteServiceSchedule",
        "deleteServiceEntry",
      ]);
    }
    expect(await scheduleRow(oil)).toMatchObject({ everyDays: 30, deleted: false, cycle: 0 });
    expect(await entryRow(entry)).toMatchObject({ deleted: false });
  });

  it("refuses another workspace's schedule or entry, and an edit that leaves no interval, writing nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const myOil = await insertSchedule(a.workspaceId, mine, { everyDays: 30 });
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const theirOil = await insertSchedule(b.workspaceId, theirs, { everyDays: 30 });
    const theirEntry = crypto.randomUUID();
    await push(b.token, [{ name: "logServiceEntry", args: { id: theirEntry, vehicleId: theirs, date: today() } }]);
    const answer = await push(a.token, [
      { name: "updateServiceSchedule", args: { id: theirOil, name: "Taken over", everyDays: 1 } },
      { name: "deleteServiceSchedule", args: { id: theirOil } },
      { name: "deleteServiceEntry", args: { id: theirEntry } },
      { name: "updateServiceSchedule", args: { id: myOil, everyDays: null } },
      { name: "updateServiceSchedule", args: { id: myOil, name: "" } },
    ]);
    // refused for what they name, each with the server's reason for the browser's toast (issue 39)
    expect(answer.refused?.map((r) => [r.name, r.message])).toEqual([
      ["updateServiceSchedule", expect.stringMatching(/^No such/)],
      ["deleteServiceSchedule", expect.stringMatching(/^No such/)],
      ["deleteServiceEntry", expect.stringMatching(/^No such/)],
      ["updateServiceSchedule", expect.any(String)],
      ["updateServiceSchedule", expect.any(String)],
    ]);
    expect(await scheduleRow(theirOil)).toMatchObject({ name: "Oil change", everyDays: 30, deleted: false, cycle: 0 });
    expect(await entryRow(theirEntry)).toMatchObject({ workspaceId: b.workspaceId, deleted: false });
    expect(await scheduleRow(myOil)).toMatchObject({ name: "Oil change", everyDays: 30, cycle: 0 });
  });

  it("applies a replayed edit or delete once", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const oil = await insertSchedule(a.workspaceId, vehicleId, { everyDays: 30 });
    const tyres = await insertSchedule(a.workspaceId, vehicleId, { everyDays: 60 });
    const edit = { name: "updateServiceSchedule", args: { id: oil, everyDays: 45 } };
    await push(a.token, [edit]);
    await push(a.token, [edit]);
    // one new notification cycle, not two
    expect(await scheduleRow(oil)).toMatchObject({ everyDays: 45, cycle: 1 });
    const removal = { name: "deleteServiceSchedule", args: { id: tyres } };
    await push(a.token, [removal]);
    const before = (await scheduleRow(tyres))!.version;
    await push(a.token, [removal]);
    expect(await scheduleRow(tyres)).toMatchObject({ deleted: true, version: before });
  });
});

describe("submitting an inspection through sync", () => {
  const results = () => DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: i.id !== "horn" }));
  const inspectionRow = (id: string) => database(env.DB).select().from(inspections).where(eq(inspections.id, id)).get();

  it("stores a member's offline submission with its time, opens an issue per failed item, and a pull carries it (not marked waiting)", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const id = crypto.randomUUID();
    const doneAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const args = {
      id,
      vehicleId,
      formId: defaultFormId(a.workspaceId),
      results: results(),
      signedName: "Robin",
      submittedAt: doneAt,
    };
    expect((await push(member.token, [{ name: "submitInspection", args }])).refused).toBeUndefined();
    const row = await inspectionRow(id);
    expect(row).toMatchObject({
      workspaceId: a.workspaceId,
      failedItems: 1,
      submittedByUserId: member.userId,
      submittedAt: Date.parse(doneAt),
    });
    expect(row!.issueIds).toHaveLength(1);
    expect(await issueRow(row!.issueIds[0]!)).toMatchObject({ sourceInspectionId: id, status: "open" });
    // a resend (another device group, the same id) stores nothing more
    await push(member.token, [{ name: "submitInspection", args: { ...args, signedName: "Again" } }]);
    expect(await inspectionRow(id)).toMatchObject({ signedName: "Robin" });
    const pulled = (await pulledKeys(a.token)).get(inspectionKey(id));
    expect(pulled).toMatchObject({ s: "Robin", x: 1 });
    expect(pulled).not.toHaveProperty("w");
  });

  it("refuses a viewer by role, and another workspace's vehicle or form, writing nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const submission = (fields: Record<string, unknown>) => ({
      name: "submitInspection",
      args: {
        id: crypto.randomUUID(),
        vehicleId: mine,
        formId: defaultFormId(a.workspaceId),
        results: results(),
        signedName: "R",
        ...fields,
      },
    });
    const answer = await push(viewer.token, [submission({})]);
    expect(answer.refused).toEqual([expect.objectContaining({ name: "submitInspection" })]);
    await push(a.token, [submission({ vehicleId: theirs }), submission({ formId: defaultFormId(b.workspaceId) })]);
    expect(
      await database(env.DB).select().from(inspections).where(eq(inspections.workspaceId, a.workspaceId)).all(),
    ).toEqual([]);
    expect(
      await database(env.DB).select().from(inspections).where(eq(inspections.workspaceId, b.workspaceId)).all(),
    ).toEqual([]);
  });
});
