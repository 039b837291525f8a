import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_PRE_TRIP_ITEMS, defaultFormId } from "../../shared/inspections";
import { dayOf } from "../../shared/time-zone";
import { METRES_PER_MILE } from "../../shared/units";
import { database } from "../../db/client";
import { alerts, telemetry, vehicleDayRollups } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import type { MyActions } from "../maintenance/my-actions";

const db = () => database(env.DB);
const post = (path: string, token: string, json: unknown) => call(path, { method: "POST", token, json });
const actionsOf = async (token: string) => (await (await call("/api/my-actions", { token })).json()) as MyActions;

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
    for (const vehicleId of [van, truck])
      await db()
        .insert(vehicleDayRollups)
        .values({ vehicleId, workspaceId: a.workspaceId, day: today, distanceMetres: 5000, trips: 1 });
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
    expect(await actionsOf(b.token)).toEqual({ issues: [], service: [], inspections: [], unreadAlerts: 0 });
  });
});
