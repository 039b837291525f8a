import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ServiceEntry, ServiceSchedule } from "../../shared/maintenance/service";
import { database } from "../../db/client";
import { serviceEntries, serviceSchedules } from "../../db/schema";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";

const post = (path: string, token: string, json: unknown) => call(path, { method: "POST", token, json });
const schedulesOf = async (token: string, vehicleId: string) =>
  (
    (await (await call(`/api/service-schedules?vehicleId=${vehicleId}`, { token })).json()) as {
      schedules: ServiceSchedule[];
    }
  ).schedules;

describe("service schedules API", () => {
  it("creates schedules counted from the vehicle's odometer and answers their status and next due figures", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 14_600, 120);
    const oil = await post("/api/service-schedules", a.token, {
      vehicleId,
      name: "Oil change",
      everyMiles: 5000,
      lastDoneOdometerMiles: 10_000,
    });
    expect(oil.status).toBe(201);
    expect(await oil.json()).toMatchObject({ name: "Oil change", status: "due_soon", nextDueMiles: 15_000 });
    const brakes = await post("/api/service-schedules", a.token, {
      vehicleId,
      name: "Brake check",
      everyDays: 30,
      lastDoneAt: new Date(Date.now() - 40 * 86_400_000).toISOString(),
    });
    expect(await brakes.json()).toMatchObject({ status: "overdue" });
    const hydraulics = await post("/api/service-schedules", a.token, {
      vehicleId,
      name: "Hydraulics",
      everyEngineHours: 250,
    });
    // counted from the engine hours it has now
    expect(await hydraulics.json()).toMatchObject({ status: "ok", lastDoneEngineHours: 120, nextDueEngineHours: 370 });

    const listed = await schedulesOf(a.token, vehicleId);
    expect(listed.map((s) => [s.name, s.status])).toEqual([
      ["Brake check", "overdue"],
      ["Hydraulics", "ok"],
      ["Oil change", "due_soon"],
    ]);
    expect(listed[0]!.nextDueAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("refuses a schedule without an interval or with bad fields: 400 with field errors, nothing written", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    for (const [json, field] of [
      [{ vehicleId, name: "Oil" }, "everyMiles"],
      [{ vehicleId, name: "", everyDays: 10 }, "name"],
      [{ vehicleId, name: "Oil", everyDays: 1.5 }, "everyDays"],
      [{ vehicleId, name: "Oil", everyMiles: -5 }, "everyMiles"],
      [{ vehicleId, name: "Oil", everyDays: 10, lastDoneAt: "yesterday" }, "lastDoneAt"],
    ] as const) {
      const res = await post("/api/service-schedules", a.token, json);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { fields: Record<string, string[]> } };
      expect(Object.keys(body.error.fields)).toContain(field);
    }
    expect(
      await database(env.DB)
        .select()
        .from(serviceSchedules)
        .where(eq(serviceSchedules.workspaceId, a.workspaceId))
        .all(),
    ).toEqual([]);
  });

  it("lets owners and admins manage schedules, not members or viewers; viewers read", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const admin = await memberWithRole(a.workspaceId, "admin");
    const member = await memberWithRole(a.workspaceId, "member");
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const json = { vehicleId, name: "Tyres", everyMiles: 20_000 };
    expect((await post("/api/service-schedules", admin.token, json)).status).toBe(201);
    expect((await post("/api/service-schedules", member.token, json)).status).toBe(403);
    expect((await post("/api/service-schedules", viewer.token, json)).status).toBe(403);
    expect(await schedulesOf(viewer.token, vehicleId)).toHaveLength(1);
  });

  it("answers another workspace's vehicle with 404, and never lists its schedules", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    expect(
      (await post("/api/service-schedules", b.token, { vehicleId: theirs, name: "Oil", everyMiles: 5000 })).status,
    ).toBe(201);
    expect(
      (await post("/api/service-schedules", a.token, { vehicleId: theirs, name: "Oil", everyMiles: 5000 })).status,
    ).toBe(404);
    expect((await call(`/api/service-schedules?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
    expect((await call(`/api/service-entries?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
    expect(
      ((await (await call("/api/service-schedules", { token: a.token })).json()) as { schedules: unknown[] }).schedules,
    ).toEqual([]);
  });
});

describe("service entries API", () => {
  it("logs service and restarts the schedules it names from the entry's odometer, leaving the others", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 15_200);
    const member = await memberWithRole(a.workspaceId, "member");
    const oil = (await (
      await post("/api/service-schedules", a.token, {
        vehicleId,
        name: "Oil change",
        everyMiles: 5000,
        lastDoneOdometerMiles: 10_000,
      })
    ).json()) as ServiceSchedule;
    const tyres = (await (
      await post("/api/service-schedules", a.token, {
        vehicleId,
        name: "Tyres",
        everyMiles: 5000,
        lastDoneOdometerMiles: 10_000,
      })
    ).json()) as ServiceSchedule;
    expect(oil.status).toBe("overdue");

    const today = new Date().toISOString().slice(0, 10);
    const res = await post("/api/service-entries", member.token, {
      vehicleId,
      date: today,
      odometerMiles: 15_150,
      scheduleIds: [oil.id],
      description: "Oil and filter",
      costCents: 8950,
      vendor: "Quick Lube",
    });
    expect(res.status).toBe(201);
    const entry = (await res.json()) as ServiceEntry;
    expect(entry).toMatchObject({
      date: today,
      odometerMiles: 15_150,
      costCents: 8950,
      vendor: "Quick Lube",
      scheduleIds: [oil.id],
    });

    const after = await schedulesOf(a.token, vehicleId);
    expect(after.find((s) => s.id === oil.id)).toMatchObject({
      status: "ok",
      lastDoneOdometerMiles: 15_150,
      nextDueMiles: 20_150,
    });
    expect(after.find((s) => s.id === tyres.id)).toMatchObject({ status: "overdue" });
    const row = await database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, oil.id)).get();
    expect(row?.cycle).toBe(1);

    const history = (
      (await (await call(`/api/service-entries?vehicleId=${vehicleId}`, { token: a.token })).json()) as {
        entries: ServiceEntry[];
      }
    ).entries;
    expect(history.map((e) => [e.description, e.costCents])).toEqual([["Oil and filter", 8950]]);
  });

  it("refuses a viewer (403), bad fields (400 with field errors) and another vehicle's schedule, writing nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const other = await vehicleWithOdometer(a.workspaceId, 100);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const schedule = (await (
      await post("/api/service-schedules", a.token, { vehicleId: other, name: "Oil", everyMiles: 5000 })
    ).json()) as ServiceSchedule;
    expect((await post("/api/service-entries", viewer.token, { vehicleId, date: "2026-01-02" })).status).toBe(403);
    for (const [json, field] of [
      [{ vehicleId, date: "2026-02-30" }, "date"],
      [{ vehicleId, date: "2026-01-02", costCents: 12.5 }, "costCents"],
      [{ vehicleId, date: "2026-01-02", odometerMiles: "lots" }, "odometerMiles"],
      [{ vehicleId, date: "2026-01-02", scheduleIds: [schedule.id] }, "scheduleIds"],
      [{ vehicleId, date: "2999-01-01" }, "date"],
    ] as const) {
      const res = await post("/api/service-entries", a.token, json);
      expect(res.status).toBe(400);
      expect(
        Object.keys(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields),
      ).toContain(field);
    }
    expect(
      await database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.workspaceId, a.workspaceId)).all(),
    ).toEqual([]);
    expect((await schedulesOf(a.token, other))[0]).toMatchObject({ lastDoneOdometerMiles: 100 });
  });

  it("resolves the issues it names, in the same write", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const opened = (await (
      await post("/api/issues", a.token, { vehicleId, title: "Brake squeal", priority: "medium" })
    ).json()) as { id: string };
    const res = await post("/api/service-entries", a.token, {
      vehicleId,
      date: "2026-01-02",
      description: "New pads",
      resolvesIssueIds: [opened.id],
    });
    expect(res.status).toBe(201);
    const entry = (await res.json()) as ServiceEntry;
    const issue = (await (await call(`/api/issues/${opened.id}`, { token: a.token })).json()) as Record<
      string,
      unknown
    >;
    expect(issue).toMatchObject({ status: "resolved", resolvedByServiceEntryId: entry.id });
  });

  it("answers another workspace's vehicle or issue with 404 and writes nothing", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    expect((await post("/api/service-entries", a.token, { vehicleId: theirs, date: "2026-01-02" })).status).toBe(404);
    expect(
      (
        await post("/api/service-entries", a.token, {
          vehicleId: mine,
          date: "2026-01-02",
          resolvesIssueIds: ["not-ours"],
        })
      ).status,
    ).toBe(404);
    const theirIssue = (await (
      await post("/api/issues", b.token, { vehicleId: theirs, title: "Leak", priority: "low" })
    ).json()) as { id: string };
    expect(
      (
        await post("/api/service-entries", a.token, {
          vehicleId: mine,
          date: "2026-01-02",
          resolvesIssueIds: [theirIssue.id],
        })
      ).status,
    ).toBe(404);
    expect(
      ((await (await call(`/api/issues/${theirIssue.id}`, { token: b.token })).json()) as { status: string }).status,
    ).toBe("open");
    expect(
      await database(env.DB).select().from(serviceEntries).where(eq(serviceEntries.workspaceId, a.workspaceId)).all(),
    ).toEqual([]);
  });
});

describe("managing schedules and entries (owners and admins)", () => {
  const patch = (path: string, token: string, json: unknown) => call(path, { method: "PATCH", token, json });
  const del = (path: string, token: string) => call(path, { method: "DELETE", token });
  const addOil = async (token: string, vehicleId: string, fields: Record<string, unknown> = {}) =>
    (await (
      await post("/api/service-schedules", token, {
        vehicleId,
        name: "Oil change",
        everyMiles: 5000,
        lastDoneOdometerMiles: 10_000,
        ...fields,
      })
    ).json()) as ServiceSchedule;
  const myActions = async (token: string) =>
    ((await (await call("/api/my-actions", { token })).json()) as { service: ServiceSchedule[] }).service;

  it("edits a schedule's name and interval: the status is worked out again from the same last-done basis", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 14_600);
    const oil = await addOil(a.token, vehicleId);
    expect(oil.status).toBe("due_soon");
    const res = await patch(`/api/service-schedules/${oil.id}`, a.token, { name: "Synthetic oil", everyMiles: 4000 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: oil.id,
      name: "Synthetic oil",
      everyMiles: 4000,
      lastDoneOdometerMiles: 10_000,
      lastDoneAt: oil.lastDoneAt,
      status: "overdue",
      nextDueMiles: 14_000,
    });
    expect((await schedulesOf(a.token, vehicleId))[0]).toMatchObject({ name: "Synthetic oil", status: "overdue" });
    // a new notification cycle: the old period's announcement does not stick to the new interval
    const row = await database(env.DB).select().from(serviceSchedules).where(eq(serviceSchedules.id, oil.id)).get();
    expect(row).toMatchObject({ cycle: 1, announced: null });

    // swapping miles for days: null removes an interval
    const swapped = await patch(`/api/service-schedules/${oil.id}`, a.token, { everyMiles: null, everyDays: 365 });
    expect(await swapped.json()).toMatchObject({ everyMiles: null, everyDays: 365, status: "ok", nextDueMiles: null });
  });

  it("refuses an edit that leaves no interval, or bad fields: 400 with field errors, nothing changed", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const oil = await addOil(a.token, vehicleId);
    for (const [json, field] of [
      [{ everyMiles: null }, "everyMiles"],
      [{ everyMiles: null, everyDays: null, everyEngineHours: null }, "everyMiles"],
      [{ name: "" }, "name"],
      [{ everyDays: 2.5 }, "everyDays"],
      [{ lastDoneAt: "2999-01-01" }, "lastDoneAt"],
    ] as const) {
      const res = await patch(`/api/service-schedules/${oil.id}`, a.token, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      const body = (await res.json()) as { error: { fields: Record<string, string[]> } };
      expect(Object.keys(body.error.fields)).toContain(field);
    }
    expect((await schedulesOf(a.token, vehicleId))[0]).toMatchObject({ name: "Oil change", everyMiles: 5000 });
  });

  it("deletes a schedule: gone from both lists and My actions, and a second delete is 404", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 16_000);
    const oil = await addOil(a.token, vehicleId);
    expect((await myActions(a.token)).map((s) => s.id)).toEqual([oil.id]);
    expect((await del(`/api/service-schedules/${oil.id}`, a.token)).status).toBe(204);
    expect(await schedulesOf(a.token, vehicleId)).toEqual([]);
    expect(
      ((await (await call("/api/service-schedules", { token: a.token })).json()) as { schedules: unknown[] }).schedules,
    ).toEqual([]);
    expect(await myActions(a.token)).toEqual([]);
    expect((await del(`/api/service-schedules/${oil.id}`, a.token)).status).toBe(404);
    expect((await patch(`/api/service-schedules/${oil.id}`, a.token, { everyMiles: 1000 })).status).toBe(404);
  });

  it("deletes an entry logged by mistake, leaving the schedule it restarted and the issue it resolved as they are", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 15_200);
    const oil = await addOil(a.token, vehicleId);
    const issue = (await (
      await post("/api/issues", a.token, { vehicleId, title: "Oil leak", priority: "low" })
    ).json()) as { id: string };
    const entry = (await (
      await post("/api/service-entries", a.token, {
        vehicleId,
        date: new Date().toISOString().slice(0, 10),
        scheduleIds: [oil.id],
        resolvesIssueIds: [issue.id],
      })
    ).json()) as ServiceEntry;
    expect((await del(`/api/service-entries/${entry.id}`, a.token)).status).toBe(204);
    expect(
      (
        (await (await call(`/api/service-entries?vehicleId=${vehicleId}`, { token: a.token })).json()) as {
          entries: unknown[];
        }
      ).entries,
    ).toEqual([]);
    expect((await schedulesOf(a.token, vehicleId))[0]).toMatchObject({ lastDoneOdometerMiles: 15_200, status: "ok" });
    expect(await (await call(`/api/issues/${issue.id}`, { token: a.token })).json()).toMatchObject({
      status: "resolved",
    });
    expect((await del(`/api/service-entries/${entry.id}`, a.token)).status).toBe(404);
  });

  it("lets owners and admins edit and delete, not members or viewers (403); another workspace's ids are 404", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const oil = await addOil(a.token, vehicleId);
    const entry = (await (
      await post("/api/service-entries", a.token, { vehicleId, date: "2026-01-02" })
    ).json()) as ServiceEntry;
    for (const role of ["member", "viewer"]) {
      const person = await memberWithRole(a.workspaceId, role);
      expect((await patch(`/api/service-schedules/${oil.id}`, person.token, { everyMiles: 1 })).status).toBe(403);
      expect((await del(`/api/service-schedules/${oil.id}`, person.token)).status).toBe(403);
      expect((await del(`/api/service-entries/${entry.id}`, person.token)).status).toBe(403);
    }
    expect((await patch(`/api/service-schedules/${oil.id}`, b.token, { name: "Mine now" })).status).toBe(404);
    expect((await del(`/api/service-schedules/${oil.id}`, b.token)).status).toBe(404);
    expect((await del(`/api/service-entries/${entry.id}`, b.token)).status).toBe(404);
    expect((await schedulesOf(a.token, vehicleId))[0]).toMatchObject({ name: "Oil change", everyMiles: 5000 });

    const admin = await memberWithRole(a.workspaceId, "admin");
    expect((await patch(`/api/service-schedules/${oil.id}`, admin.token, { everyDays: 30 })).status).toBe(200);
    expect((await del(`/api/service-entries/${entry.id}`, admin.token)).status).toBe(204);
    expect((await del(`/api/service-schedules/${oil.id}`, admin.token)).status).toBe(204);
  });
});
