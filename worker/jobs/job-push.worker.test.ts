import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { JOB_CSV_HEADER } from "../../shared/jobs/jobs";
import { database } from "../test/db";
import { drivers, jobNotifications, vehicles } from "../../db/schema";
import { call, insertDriver, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { FakePushService } from "../test/push-service";
import { pushMutations } from "../test/sync";

/** A job given to a vehicle nudges its driver's phones (issue 43, docs/decisions/0047 and 0052). */
const db = database(env.DB);
let pushService: FakePushService;
beforeEach(() => {
  pushService = new FakePushService();
  vi.spyOn(globalThis, "fetch").mockImplementation(pushService.fetch);
});
afterEach(() => vi.restoreAllMocks());

/** A workspace whose van is driven by a member (the driver's e-mail is their account's), subscribed on a phone. */
async function fleetWithDriver() {
  const owner = await userWithWorkspace();
  const driver = await memberWithRole(owner.workspaceId, "member");
  const driverId = await insertDriver(owner.workspaceId, "Dee");
  await db.update(drivers).set({ email: driver.email.toUpperCase() }).where(eq(drivers.id, driverId));
  const van = await insertVehicle(owner.workspaceId, { name: "Van 1", driverId });
  const endpoint = `https://push.example.net/send/${crypto.randomUUID()}`;
  const res = await call("/api/push-subscriptions", {
    method: "POST",
    token: driver.token,
    json: await pushService.subscribe(endpoint),
  });
  expect(res.status).toBe(201);
  return { owner, driver, van, endpoint };
}

const plan = (token: string, json: Record<string, unknown>) =>
  call("/api/jobs", {
    method: "POST",
    token,
    json: { date: "2026-11-30", location: { latitude: 41.88, longitude: -87.63 }, ...json },
  });

describe("job pushes", () => {
  it("tells the vehicle's driver of a job given to it: 'New job: <title>', opening their day", async () => {
    const { owner, van, endpoint } = await fleetWithDriver();
    expect((await plan(owner.token, { title: "Deliver to Acme", windowStart: "09:00" })).status).toBe(201);
    expect(pushService.received).toHaveLength(0); // not assigned: nobody to tell
    const res = await plan(owner.token, { title: "Deliver to Acme", vehicleId: van, windowStart: "09:00" });
    const { id } = (await res.json()) as { id: string };
    expect(pushService.received).toHaveLength(1);
    expect(pushService.received[0]).toMatchObject({
      endpoint,
      message: { title: "New job: Deliver to Acme", body: "2026-11-30 from 09:00 UTC", tag: `job-${id}` },
    });
    expect((pushService.received[0]!.message as { url: string }).url).toMatch(/^\/my-day\?date=2026-11-30$/);
    expect(await db.select().from(jobNotifications).all()).toEqual([]);
  });

  it("writes the window on the workspace's clock, its zone named, as every page does (docs/decisions/0079)", async () => {
    const { owner, van } = await fleetWithDriver();
    const prefs = (json: unknown) => call("/api/workspace/preferences", { method: "PATCH", token: owner.token, json });
    expect((await prefs({ timeZone: "America/Chicago" })).status).toBe(200);
    await plan(owner.token, { title: "Deliver to Acme", vehicleId: van, windowStart: "21:15" });
    expect((pushService.received[0]!.message as { body: string }).body).toBe("2026-11-30 from 9:15 PM CST");
    expect((await prefs({ hourCycle: "h23" })).status).toBe(200);
    await plan(owner.token, { title: "Deliver to Acme", vehicleId: van, windowStart: "21:15" });
    expect((pushService.received[1]!.message as { body: string }).body).toBe("2026-11-30 from 21:15 CST");
  });

  it("sends one notice for a day imported at once, and none for the driver's own planning or another vehicle", async () => {
    const { owner, driver, van } = await fleetWithDriver();
    const other = await insertVehicle(owner.workspaceId, { name: "Van 9" });
    const body = [
      JOB_CSV_HEADER,
      "A,41.8,-87.6,,2026-11-30,,,Van 1",
      "B,41.8,-87.6,,2026-11-30,,,Van 1",
      "C,41.8,-87.6,,2026-11-30,,,Van 9",
    ].join("\n");
    const res = await call("/api/jobs/import", {
      method: "POST",
      token: owner.token,
      headers: { "Content-Type": "text/csv" },
      body,
    });
    expect(res.status).toBe(201);
    expect(pushService.received.map((p) => (p.message as { title: string }).title)).toEqual(["2 new jobs"]);
    await plan(driver.token, { title: "My own", vehicleId: van });
    await plan(owner.token, { title: "Not theirs", vehicleId: other });
    expect(pushService.received).toHaveLength(1);
  });

  it("tells the driver of a job moved onto their vehicle through sync, offline planning included", async () => {
    const { owner, van } = await fleetWithDriver();
    const id = crypto.randomUUID();
    const location = { latitude: 41.88, longitude: -87.63 };
    const answer = await pushMutations(owner.token, [
      { name: "createJob", args: { id, title: "Planned offline", date: "2026-11-30", location } },
      { name: "reorderJobs", args: { vehicleId: van, date: "2026-11-30", jobIds: [id] } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    await vi.waitFor(() => expect(pushService.received).toHaveLength(1));
    expect(pushService.received[0]!.message).toMatchObject({ title: "New job: Planned offline" });
    // A vehicle with no driver, or a driver who is no member: nobody is told, nothing is left queued.
    await db.update(vehicles).set({ driverId: null }).where(eq(vehicles.id, van));
    await pushMutations(owner.token, [{ name: "updateJob", args: { id, vehicleId: null } }]);
    await pushMutations(owner.token, [{ name: "updateJob", args: { id, vehicleId: van } }]);
    await vi.waitFor(async () => expect(await db.select().from(jobNotifications).all()).toEqual([]));
    expect(pushService.received).toHaveLength(1);
  });
});
