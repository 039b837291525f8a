import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/maintenance/inspections";
import { dayAround } from "../../shared/maintenance/drove-without-inspection";
import { dayOf } from "../../shared/units/time-zone";
import { METRES_PER_MILE } from "../../shared/units/units";
import { database } from "../test/db";
import { alerts, telemetry, vehicleEvents } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import type { MyActions } from "../maintenance/my-actions";

const db = () => database(env.DB);
const post = (path: string, token: string, json: unknown) => call(path, { method: "POST", token, json });
const actionsOf = async (token: string) => (await (await call("/api/my-actions", { token })).json()) as MyActions;

/** A timeline event as the workspace's object flushes it (the rows the browser syncs). */
async function tripOf(
  workspaceId: string,
  vehicleId: string,
  startTime: number,
  endTime: number | null,
  over: { type?: string; deleted?: boolean } = {},
) {
  await db()
    .insert(vehicleEvents)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId,
      type: "TRANSIT",
      startTime,
      endTime,
      version: 0,
      ...over,
    });
}

describe("GET /api/my-actions", () => {
  it("lists my open issues, service due, vehicles driven today without an inspection, and my unread alerts", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const van = await insertVehicle(a.workspaceId, { name: "Van" });
    const truck = await insertVehicle(a.workspaceId, { name: "Truck" });
    await db()
      .insert(telemetry)
      .values({
        id: van,
        workspaceId: a.workspaceId,
        vehicleId: van,
        status: "off",
        statusTimestamp: 0,
        latitude: 1,
        longitude: 1,
        odometer: 9_700 * METRES_PER_MILE,
        recordedAt: Date.now(),
        version: 0,
      });
    await post("/api/service-schedules", a.token, {
      vehicleId: van,
      name: "Oil change",
      everyMiles: 5000,
      lastDoneOdometerMiles: 5000,
    });
    await post("/api/service-schedules", a.token, { vehicleId: truck, name: "Annual", everyDays: 365 });
    await post("/api/issues", a.token, {
      vehicleId: van,
      title: "Mine",
      priority: "high",
      assigneeUserId: member.userId,
    });
    await post("/api/issues", a.token, { vehicleId: van, title: "Not mine", priority: "low" });
    const today = dayOf(Date.now(), "UTC");
    for (const vehicleId of [van, truck]) await tripOf(a.workspaceId, vehicleId, Date.now() - 60_000, null);
    await post("/api/inspections", member.token, {
      formId: defaultFormId(a.workspaceId),
      vehicleId: truck,
      results: DEFAULT_PRE_TRIP_ITEMS.map((i) => ({ itemId: i.id, pass: true })),
      signedName: "M",
    });
    await db().insert(alerts).values({
      id: crypto.randomUUID(),
      workspaceId: a.workspaceId,
      version: 0,
      ruleId: "r",
      vehicleId: van,
      type: "speeding",
      at: Date.now(),
      latitude: 1,
      longitude: 1,
    });

    const mine = await actionsOf(member.token);
    expect(mine.issues.map((i) => i.title)).toEqual(["Mine"]);
    expect(mine.service.map((s) => [s.name, s.status])).toEqual([["Oil change", "due_soon"]]);
    expect(mine.inspections).toEqual([{ vehicleId: van, vehicleName: "Van", day: today }]);
    expect(mine.unreadAlerts).toBe(1);

    expect((await post("/api/alerts/read", member.token, { all: true })).status).toBe(200);
    expect((await actionsOf(member.token)).unreadAlerts).toBe(0);
    // another workspace sees none of it
    const b = await userWithWorkspace();
    expect(await actionsOf(b.token)).toEqual({
      issues: [],
      service: [],
      inspections: [],
      unreadAlerts: 0,
      renewals: [],
      workOrders: [],
      parts: [],
    });
  });

  it("'drove today' is a trip under way today in the workspace's zone, by the browser's rule, not the daily rollups", async () => {
    const a = await userWithWorkspace();
    const zone = await call("/api/workspace/preferences", {
      method: "PATCH",
      token: a.token,
      json: { timeZone: "Pacific/Kiritimati" }, // UTC+14: its day is never UTC's whole day
    });
    expect(zone.status).toBe(200);
    const day = dayAround(Date.now(), "Pacific/Kiritimati");
    const hour = 3_600_000;
    const names = ["Van 10", "Van 2", "Night", "Yesterday", "Towed", "Old", "Parked"];
    const [van10, van2, night, yesterday, towed, old] = await Promise.all(
      names.map((name) => insertVehicle(a.workspaceId, { name })),
    );
    await tripOf(a.workspaceId, van10!, day.start + hour, day.start + 2 * hour);
    await tripOf(a.workspaceId, van2!, day.start + 60_000, null); // going on
    await tripOf(a.workspaceId, night!, day.start - hour, day.start + 10 * 60_000); // crossed midnight
    await tripOf(a.workspaceId, yesterday!, day.start - 3 * hour, day.start - hour);
    await tripOf(a.workspaceId, towed!, day.start + hour, day.start + 2 * hour, { type: "TOW" });
    // a trip no longer among the vehicle's synced events (the browser does not hold it either)
    await tripOf(a.workspaceId, old!, day.start + hour, day.start + 2 * hour, { deleted: true });

    const { inspections } = await actionsOf(a.token);
    expect(inspections.map((i) => i.vehicleName)).toEqual(["Night", "Van 2", "Van 10"]);
    expect(new Set(inspections.map((i) => i.day))).toEqual(new Set([day.day]));
  });
});
