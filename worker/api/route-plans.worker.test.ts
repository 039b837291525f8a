import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeJob, jobKey, type Job, type JobRoutes, type JobWire } from "../../shared/jobs/jobs";
import type { RoutePlan } from "../../shared/jobs/route-plan";
import { database } from "../../db/client";
import { jobs, places } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";
import { pullPatch } from "../test/sync";
import { applyRoutePlan } from "../jobs/route-plan-apply";
import { LIMITS } from "../auth/rate-limit";
import { commitWorkspaceWrite } from "../workspace-object";

/** Planning a day over the API (issue 54, DESIGN.md "Jobs and routes", docs/decisions/0076). */
const DAY = "2026-12-01";
const plan = (token: string, json: unknown) => call("/api/routes/plan", { method: "POST", token, json });
const apply = (token: string, json: unknown) => call("/api/routes/plan/apply", { method: "POST", token, json });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;

async function job(token: string, title: string, latitude: number, more: Record<string, unknown> = {}) {
  const res = await call("/api/jobs", {
    method: "POST",
    token,
    json: { title, date: DAY, location: { latitude, longitude: -87.63 }, ...more },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Job;
}

/** Two vans and four stops north of a depot in Chicago, one of them at night (no shift reaches it). */
async function smallDay() {
  const a = await userWithWorkspace();
  const vans = [
    await insertVehicle(a.workspaceId, { name: "Van A" }),
    await insertVehicle(a.workspaceId, { name: "Van B" }),
  ];
  const stops = [
    await job(a.token, "North", 41.95, { windowStart: "09:00", windowEnd: "11:00" }),
    await job(a.token, "Near", 41.89),
    await job(a.token, "Middle", 41.92, { vehicleId: vans[1] }),
    await job(a.token, "Night", 41.9, { windowStart: "22:00", windowEnd: "23:00" }),
  ];
  return { a, vans, stops };
}
const depot = { latitude: 41.88, longitude: -87.63 };

describe("POST /api/routes/plan", () => {
  it("proposes feasible routes with arrival and start, says why a job is left out, and measures before and after", async () => {
    const { a, vans, stops } = await smallDay();
    const res = await plan(a.token, { date: DAY, start: depot, end: depot });
    expect(res.status).toBe(200);
    const body = (await res.json()) as RoutePlan;
    expect(body.unassigned).toEqual([{ jobId: stops[3]!.id, reason: "unreachable_in_window" }]);
    const planned = body.routes.flatMap((r) => r.stops.map((s) => s.jobId)).sort();
    expect(planned).toEqual([stops[0]!.id, stops[1]!.id, stops[2]!.id].sort());
    // keepAssigned (the default): the job on Van B stays on Van B.
    const middleRoute = body.routes.find((r) => r.stops.some((s) => s.jobId === stops[2]!.id))!;
    expect(middleRoute.vehicleId).toBe(vans[1]);
    for (const route of body.routes) {
      expect(vans).toContain(route.vehicleId);
      expect(route.distanceMeters).toBeGreaterThan(0);
      for (const stop of route.stops) expect(Date.parse(stop.start)).toBeGreaterThanOrEqual(Date.parse(stop.arrival));
    }
    const north = body.routes.flatMap((r) => r.stops).find((s) => s.jobId === stops[0]!.id)!;
    expect(north.start >= "2026-12-01T09:00:00.000Z" && north.start <= "2026-12-01T11:00:59.000Z").toBe(true);
    expect(body.after.lateStops).toBe(0);
    // Before: only Van B's one job is routed today.
    expect(body.before.distanceMeters).toBeGreaterThan(0);
    expect(body.after.distanceMeters).toBeGreaterThan(body.before.distanceMeters);
  });

  it("answers bad input 400: a shift ending before it starts, too many jobs, a job of another day", async () => {
    const { a, stops } = await smallDay();
    const cases: unknown[] = [
      { date: DAY, shiftStart: "17:00", shiftEnd: "09:00" },
      { date: DAY, jobIds: Array.from({ length: 1001 }, (_, i) => `job-${i}`) },
      { date: "2026-02-30" },
      { date: DAY, start: { latitude: 100, longitude: 0 } },
      { date: "2026-12-02", jobIds: [stops[0]!.id] },
    ];
    for (const json of cases) expect((await plan(a.token, json)).status, JSON.stringify(json).slice(0, 80)).toBe(400);
    expect((await apply(a.token, { routes: [] })).status).toBe(400);
  });

  it("refuses viewers (403) and another workspace's vehicles, jobs and places (404)", async () => {
    const { a, vans, stops } = await smallDay();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await plan(viewer.token, { date: DAY })).status).toBe(403);
    expect(
      (await apply(viewer.token, { routes: [{ vehicleId: vans[0], stops: [{ jobId: stops[0]!.id }] }] })).status,
    ).toBe(403);
    const b = await userWithWorkspace();
    expect((await plan(b.token, { date: DAY, vehicleIds: [vans[0]] })).status).toBe(404);
    expect((await plan(b.token, { date: DAY, jobIds: [stops[0]!.id] })).status).toBe(404);
    expect((await plan(b.token, { date: DAY, start: { placeId: crypto.randomUUID() } })).status).toBe(404);
    const theirVan = await insertVehicle(b.workspaceId);
    expect((await apply(b.token, { routes: [{ vehicleId: theirVan, stops: [{ jobId: stops[0]!.id }] }] })).status).toBe(
      404,
    );
    expect((await apply(a.token, { routes: [{ vehicleId: theirVan, stops: [{ jobId: stops[0]!.id }] }] })).status).toBe(
      404,
    );
  });
});

describe("POST /api/routes/plan/apply", () => {
  it("assigns and orders the plan's jobs in one write that a pull sees", async () => {
    const { a, stops } = await smallDay();
    const proposal = (await (await plan(a.token, { date: DAY, start: depot, end: depot })).json()) as RoutePlan;
    const group = crypto.randomUUID();
    const first = await pullPatch(a.token, null, group);
    const res = await apply(a.token, { routes: proposal.routes });
    expect(res.status).toBe(200);
    const day = (await res.json()) as JobRoutes;
    for (const route of proposal.routes)
      expect(day.routes.find((r) => r.vehicleId === route.vehicleId)!.jobs.map((j) => j.id)).toEqual(
        route.stops.map((s) => s.jobId),
      );
    expect(day.unassigned.map((j) => j.id)).toEqual([stops[3]!.id]);
    // The write bumped the version: a pull from the first cookie brings the moved jobs.
    const next = await pullPatch(a.token, first.cookie, group);
    const moved = proposal.routes.flatMap((r) => r.stops.map((s) => ({ ...s, vehicleId: r.vehicleId })));
    const puts = new Map(next.patch.filter((p) => p.op === "put").map((p) => [p.key, p.value as JobWire]));
    const north = moved.find((s) => s.jobId === stops[0]!.id)!;
    expect(decodeJob(north.jobId, puts.get(jobKey(north.jobId))!)).toMatchObject({ vehicleId: north.vehicleId });
  });

  it("replanning a started day keeps the en-route stop first and plans the rest after it", async () => {
    const { a, vans, stops } = await smallDay();
    const middle = stops[2]!;
    const started = await call(`/api/jobs/${middle.id}`, {
      method: "PATCH",
      token: a.token,
      json: { status: "en_route" },
    });
    expect(started.status).toBe(200);
    const proposal = (await (await plan(a.token, { date: DAY, vehicleIds: [vans[1]] })).json()) as RoutePlan;
    const planned = proposal.routes.flatMap((r) => r.stops.map((s) => s.jobId));
    expect(planned).not.toContain(middle.id);
    expect(proposal.unassigned.map((u) => u.jobId)).not.toContain(middle.id);
    expect(planned.length).toBeGreaterThan(0);
    const day = (await (await apply(a.token, { routes: proposal.routes })).json()) as JobRoutes;
    const vanB = day.routes.find((r) => r.vehicleId === vans[1])!.jobs;
    expect(vanB[0]).toMatchObject({ id: middle.id, status: "en_route" });
    expect(vanB.slice(1).map((j) => j.id)).toEqual(planned);
  });

  it("answers 409 and writes nothing when a job changed since the plan was made", async () => {
    const { a, stops } = await smallDay();
    const proposal = (await (await plan(a.token, { date: DAY, start: depot })).json()) as RoutePlan;
    const edit = await call(`/api/jobs/${stops[1]!.id}`, {
      method: "PATCH",
      token: a.token,
      json: { notes: "Back door" },
    });
    expect(edit.status).toBe(200);
    const res = await apply(a.token, { routes: proposal.routes });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe("plan_outdated");
    const north = await database(env.DB).select().from(jobs).where(eq(jobs.id, stops[0]!.id)).get();
    expect(north!.vehicleId).toBeNull();
  });

  it("aborts the whole write when a job changes between the check and the commit", async () => {
    const { a, stops } = await smallDay();
    const proposal = (await (await plan(a.token, { date: DAY, start: depot })).json()) as RoutePlan;
    const db = database(env.DB);
    const checked = await applyRoutePlan(
      db,
      a.workspaceId,
      { routes: proposal.routes },
      { userId: null, now: Date.now() },
    );
    // Someone edits a job after the apply's checks passed, before its batch runs.
    const edit = await call(`/api/jobs/${stops[1]!.id}`, {
      method: "PATCH",
      token: a.token,
      json: { notes: "Side gate" },
    });
    expect(edit.status).toBe(200);
    const w = { env, db, waitUntil: () => undefined };
    await expect(commitWorkspaceWrite(w, a.workspaceId, checked.writes, { guards: checked.guards })).rejects.toThrow();
    expect(await checked.changedSince()).toBe(stops[1]!.id);
    const north = await db.select().from(jobs).where(eq(jobs.id, stops[0]!.id)).get();
    expect(north!.vehicleId).toBeNull();
  });
});

describe("a vehicle's capacity, shift and home place (PATCH /api/vehicles/{id})", () => {
  const patchVehicle = (token: string, id: string, json: unknown) =>
    call(`/api/vehicles/${id}`, { method: "PATCH", token, json });

  it("are what the plan reads when the request names none", async () => {
    const { a, vans, stops } = await smallDay();
    const placeId = crypto.randomUUID();
    const geometry = { type: "Circle" as const, center: [-87.63, 41.88] as [number, number], radius: 100 };
    await database(env.DB)
      .insert(places)
      .values({ id: placeId, workspaceId: a.workspaceId, name: "Yard", geometry, version: 0 });
    const res = await patchVehicle(a.token, vans[0]!, {
      capacity: 1,
      shiftStart: "12:00",
      shiftEnd: "17:00",
      homePlaceId: placeId,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      capacity: 1,
      shiftStart: "12:00",
      shiftEnd: "17:00",
      homePlaceId: placeId,
    });
    // Van A alone: one job fits its capacity; North's window (09:00-11:00) closes before its shift.
    const body = (await (
      await plan(a.token, { date: DAY, vehicleIds: [vans[0]], keepAssigned: false })
    ).json()) as RoutePlan;
    expect(body.routes.map((r) => r.stops.length)).toEqual([1]);
    expect(body.unassigned).toContainEqual({ jobId: stops[0]!.id, reason: "unreachable_in_window" });
    expect(body.unassigned.map((u) => u.reason)).toContain("no_room_left");
    expect(Date.parse(body.routes[0]!.stops[0]!.arrival)).toBeGreaterThanOrEqual(Date.parse(`${DAY}T12:00:00Z`));
    // From the yard and back: a route with distance.
    expect(body.routes[0]!.distanceMeters).toBeGreaterThan(0);
  });

  it("are read back by GET /api/vehicles/{id} (viewers too); another workspace's vehicle is a 404", async () => {
    const { a, vans } = await smallDay();
    expect((await patchVehicle(a.token, vans[0]!, { capacity: 12, shiftStart: "07:30" })).status).toBe(200);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const read = await call(`/api/vehicles/${vans[0]}`, { token: viewer.token });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      id: vans[0],
      name: "Van A",
      capacity: 12,
      shiftStart: "07:30",
      shiftEnd: null,
      homePlaceId: null,
    });
    const b = await userWithWorkspace();
    expect((await call(`/api/vehicles/${vans[0]}`, { token: b.token })).status).toBe(404);
  });

  it("refuses a shift ending before it starts (400) and another workspace's place (404)", async () => {
    const { a, vans } = await smallDay();
    expect((await patchVehicle(a.token, vans[0]!, { shiftStart: "12:00" })).status).toBe(200);
    expect((await patchVehicle(a.token, vans[0]!, { shiftEnd: "11:00" })).status).toBe(400);
    expect((await patchVehicle(a.token, vans[0]!, { capacity: -1 })).status).toBe(400);
    expect((await patchVehicle(a.token, vans[0]!, { homePlaceId: crypto.randomUUID() })).status).toBe(404);
  });
});

describe("a job's size against a vehicle's capacity (issue 54)", () => {
  const patchVehicle = (token: string, id: string, json: unknown) =>
    call(`/api/vehicles/${id}`, { method: "PATCH", token, json });

  it("is kept and answered as given, 1 when not given, and refused 400 when not a whole number of 1 or more", async () => {
    const a = await userWithWorkspace();
    const given = await job(a.token, "Pallets", 41.9, { size: 4 });
    expect(given.size).toBe(4);
    expect((await job(a.token, "Letter", 41.91)).size).toBe(1);
    for (const size of [0, -2, 1.5, "3", null]) {
      const res = await call("/api/jobs", {
        method: "POST",
        token: a.token,
        json: { title: "Bad", date: DAY, location: { latitude: 41.9, longitude: -87.63 }, size },
      });
      expect(res.status, String(size)).toBe(400);
      expect((await errorOf(res)).code).toBe("invalid_input");
    }
    const patched = await call(`/api/jobs/${given.id}`, { method: "PATCH", token: a.token, json: { size: 0 } });
    expect(patched.status).toBe(400);
  });

  it("is what the plan loads a vehicle with: a job larger than every van is left out as too large, two that do not fit one van together go on two", async () => {
    const a = await userWithWorkspace();
    const vans = [
      await insertVehicle(a.workspaceId, { name: "Van A" }),
      await insertVehicle(a.workspaceId, { name: "Van B" }),
    ];
    for (const van of vans) expect((await patchVehicle(a.token, van, { capacity: 5 })).status).toBe(200);
    const big = [await job(a.token, "Sofa", 41.9, { size: 3 }), await job(a.token, "Wardrobe", 41.901, { size: 3 })];
    const huge = await job(a.token, "Piano", 41.91, { size: 6 });
    const body = (await (await plan(a.token, { date: DAY, start: depot, end: depot })).json()) as RoutePlan;
    expect(body.unassigned).toEqual([{ jobId: huge.id, reason: "too_large" }]);
    const routeOf = (id: string) => body.routes.find((r) => r.stops.some((s) => s.jobId === id))?.vehicleId;
    // Side by side, they would share one van were they of size 1 (the plan's fewest vehicles first).
    expect(routeOf(big[0]!.id)).toBeDefined();
    expect(routeOf(big[1]!.id)).toBeDefined();
    expect(routeOf(big[0]!.id)).not.toBe(routeOf(big[1]!.id));
  });
});

describe("a workspace's plans a minute", () => {
  afterEach(() => vi.useRealTimers());

  it("answers 429 past the bound with the JSON error and Retry-After, and never refuses another workspace", async () => {
    // The bound is a fixed window on the clock's minute, and seven real plans on a busy machine took
    // 41 s: the clock is held inside one window, or a new minute in the middle refills the budget.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - (Date.now() % 60_000) + 1_000 });
    const { a } = await smallDay();
    const b = await smallDay();
    const colleague = await memberWithRole(a.workspaceId, "admin");
    const statuses = [];
    // The bound is the workspace's, whoever of it asks: half from each of two people.
    for (let i = 0; i < LIMITS.routePlans.max; i++)
      statuses.push((await plan(i % 2 ? colleague.token : a.token, { date: DAY })).status);
    expect(statuses).toEqual(Array(LIMITS.routePlans.max).fill(200));
    const refused = await plan(colleague.token, { date: DAY });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await errorOf(refused)).code).toBe("rate_limited");
    // Another workspace plans as before.
    expect((await plan(b.a.token, { date: DAY })).status).toBe(200);
  });

  it("spends nothing on a refused request: bad input (400) and a viewer (403) leave the workspace its plans", async () => {
    const { a } = await smallDay();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    for (let i = 0; i < LIMITS.routePlans.max + 2; i++) {
      expect((await plan(a.token, { date: DAY, shiftStart: "17:00", shiftEnd: "09:00" })).status).toBe(400);
      expect((await plan(viewer.token, { date: DAY })).status).toBe(403);
    }
    expect((await plan(a.token, { date: DAY })).status).toBe(200);
  });
});
