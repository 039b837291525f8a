import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Job, JobRoutes } from "../../shared/jobs/jobs";
import { database } from "../../db/client";
import { jobs, photos, places } from "../../db/schema";
import { call, insertVehicle, memberWithRole, userWithWorkspace } from "../test/factories";

/** Jobs and routes over REST (issue 43, DESIGN.md "Jobs and routes"): planning, status, proof, isolation. */
const send = (method: string, path: string, token: string, json?: unknown) => call(path, { method, token, json });
const post = (token: string, json: unknown) => send("POST", "/api/jobs", token, json);
const created = async (token: string, json: unknown) => {
  const res = await post(token, json);
  expect(res.status).toBe(201);
  return (await res.json()) as Job;
};
const listed = async (token: string, query: string) =>
  ((await (await call(`/api/jobs?${query}`, { token })).json()) as { jobs: Job[] }).jobs;
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; fields?: object } }).error;
const DAY = "2026-11-30";
const at = (latitude: number, longitude: number, address?: string) => ({ latitude, longitude, address });
const stop = (title: string, more: Record<string, unknown> = {}) => ({
  title,
  date: DAY,
  location: at(41.88, -87.63),
  ...more,
});

describe("jobs API", () => {
  it("plans jobs numbered per workspace, each at the end of its vehicle's day unless placed, and lists them in order", async () => {
    const a = await userWithWorkspace();
    const van = await insertVehicle(a.workspaceId, { name: "Van 1" });
    const first = await created(
      a.token,
      stop("Deliver boxes", { vehicleId: van, windowStart: "09:00", windowEnd: "10:30" }),
    );
    expect(first).toMatchObject({
      number: 1,
      status: "scheduled",
      vehicleId: van,
      radiusMeters: 150,
      durationMinutes: 5,
      sequence: 0,
      windowStart: "09:00",
      windowEnd: "10:30",
      location: { latitude: 41.88, longitude: -87.63, address: null },
      eta: null,
      late: false,
      proof: null,
    });
    const second = await created(a.token, stop("Pick up", { vehicleId: van, radiusMeters: 80, notes: "Ring twice" }));
    const loose = await created(a.token, stop("Unassigned one"));
    const front = await created(a.token, stop("First of the day", { vehicleId: van, sequence: 0 }));
    expect([second.number, second.sequence, loose.number, loose.sequence]).toEqual([2, 1, 3, 0]);
    // Another workspace counts from 1 again.
    const b = await userWithWorkspace();
    expect((await created(b.token, stop("Theirs"))).number).toBe(1);

    expect((await listed(a.token, `date=${DAY}&vehicleId=${van}`)).map((j) => j.title)).toEqual([
      "Deliver boxes",
      "First of the day",
      "Pick up",
    ]);
    expect((await listed(a.token, "vehicleId=none")).map((j) => j.id)).toEqual([loose.id]);
    expect(await listed(a.token, "date=2026-12-01")).toEqual([]);
    const routes = (await (await call(`/api/routes?date=${DAY}`, { token: a.token })).json()) as JobRoutes;
    expect(routes.routes).toEqual([{ vehicleId: van, jobs: expect.any(Array) }]);
    expect(routes.routes[0]!.jobs.map((j) => j.id)).toEqual([first.id, front.id, second.id]);
    expect(routes.unassigned.map((j) => j.id)).toEqual([loose.id]);
  });

  it("answers bad input 400 with the field named", async () => {
    const a = await userWithWorkspace();
    const cases: [unknown, string][] = [
      [{ date: DAY, location: at(1, 2) }, "title"],
      [stop("x", { date: "2026-02-30" }), "date"],
      [stop("x", { windowStart: "10:00", windowEnd: "09:00" }), "windowEnd"],
      [stop("x", { windowStart: "9am" }), "windowStart"],
      [{ title: "x", date: DAY }, "location"],
      [stop("x", { placeId: crypto.randomUUID() }), "location"],
      [stop("x", { location: { latitude: 41.8 } }), "location.longitude"],
      [stop("x", { location: at(91, 0) }), "location.latitude"],
      [stop("x", { radiusMeters: 0 }), "radiusMeters"],
      [stop("x", { customerEmail: "not an address" }), "customerEmail"],
    ];
    for (const [body, field] of cases) {
      const res = await post(a.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((await errorOf(res)).fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    // An address alone needs a geocoder; none is configured in tests.
    const res = await post(a.token, stop("x", { location: { address: "1 Main St, Chicago" } }));
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ fields: { location: [expect.stringMatching(/geocoder/)] } });
    expect(await listed(a.token, "")).toEqual([]);
    expect((await call("/api/jobs?status=lost", { token: a.token })).status).toBe(400);
    expect((await call("/api/routes", { token: a.token })).status).toBe(400);
  });

  it("heads a job at a place for the place's centre", async () => {
    const a = await userWithWorkspace();
    const placeId = crypto.randomUUID();
    const geometry = { type: "Circle" as const, center: [-87.6, 41.9] as [number, number], radius: 100 };
    await database(env.DB)
      .insert(places)
      .values({ id: placeId, workspaceId: a.workspaceId, name: "Depot", geometry, version: 0 });
    const job = await created(a.token, { title: "Load", date: DAY, placeId });
    expect(job).toMatchObject({ placeId, location: { latitude: 41.9, longitude: -87.6 } });
  });

  it("moves status by the transition rule, stamping each time, and takes the driver's proof", async () => {
    const a = await userWithWorkspace();
    const driver = await memberWithRole(a.workspaceId, "member");
    const job = await created(a.token, stop("Install"));
    const patch = (id: string, json: unknown) => send("PATCH", `/api/jobs/${id}`, a.token, json);
    expect(await (await patch(job.id, { status: "cancelled" })).json()).toMatchObject({ status: "cancelled" });
    const refused = await send("POST", `/api/jobs/${job.id}/complete`, driver.token, {});
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).fields).toHaveProperty("status");
    expect((await patch(job.id, { status: "scheduled" })).status).toBe(200);

    const photoId = crypto.randomUUID();
    const signature = crypto.randomUUID();
    await database(env.DB)
      .insert(photos)
      .values([
        { id: photoId, workspaceId: a.workspaceId, contentType: "image/jpeg", size: 10 },
        { id: signature, workspaceId: a.workspaceId, contentType: "image/png", size: 10 },
      ]);
    const before = Date.now();
    const res = await send("POST", `/api/jobs/${job.id}/complete`, driver.token, {
      photoIds: [photoId],
      signaturePhotoId: signature,
      recipientName: "Ann Lee",
      note: "Left at the back door",
    });
    expect(res.status).toBe(200);
    const done = (await res.json()) as Job;
    expect(done).toMatchObject({
      status: "completed",
      proof: {
        photoIds: [photoId],
        signaturePhotoId: signature,
        recipientName: "Ann Lee",
        note: "Left at the back door",
        completedByUserId: driver.userId,
      },
    });
    expect(Date.parse(done.completedAt!)).toBeGreaterThanOrEqual(before - 1000);
    // Completed is final.
    expect((await patch(job.id, { status: "scheduled" })).status).toBe(400);
  });

  it("keeps every workspace's jobs apart: another workspace's job, vehicle, place or photo is a 404", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirVehicle = await insertVehicle(b.workspaceId);
    const theirJob = await created(b.token, stop("Theirs", { vehicleId: theirVehicle }));
    const theirPlace = crypto.randomUUID();
    const geometry = { type: "Circle" as const, center: [0, 0] as [number, number], radius: 100 };
    await database(env.DB)
      .insert(places)
      .values({ id: theirPlace, workspaceId: b.workspaceId, name: "P", geometry, version: 0 });
    const theirPhoto = crypto.randomUUID();
    await database(env.DB)
      .insert(photos)
      .values({ id: theirPhoto, workspaceId: b.workspaceId, contentType: "image/png", size: 10 });
    const mine = await created(a.token, stop("Mine"));

    expect((await post(a.token, stop("x", { vehicleId: theirVehicle }))).status).toBe(404);
    expect((await post(a.token, { title: "x", date: DAY, placeId: theirPlace })).status).toBe(404);
    expect((await send("PATCH", `/api/jobs/${mine.id}`, a.token, { vehicleId: theirVehicle })).status).toBe(404);
    expect((await send("PATCH", `/api/jobs/${theirJob.id}`, a.token, { title: "Mine now" })).status).toBe(404);
    expect((await send("DELETE", `/api/jobs/${theirJob.id}`, a.token)).status).toBe(404);
    expect((await send("POST", `/api/jobs/${theirJob.id}/complete`, a.token, {})).status).toBe(404);
    const proof = { photoIds: [theirPhoto] };
    expect((await send("POST", `/api/jobs/${mine.id}/complete`, a.token, proof)).status).toBe(404);
    expect((await call(`/api/jobs?vehicleId=${theirVehicle}`, { token: a.token })).status).toBe(404);
    expect((await listed(a.token, "")).map((j) => j.id)).toEqual([mine.id]);
    const routes = (await (await call(`/api/routes?date=${DAY}`, { token: a.token })).json()) as JobRoutes;
    expect(routes).toEqual({ routes: [], unassigned: [expect.objectContaining({ id: mine.id })] });
    const row = await database(env.DB).select().from(jobs).where(eq(jobs.id, theirJob.id)).get();
    expect(row).toMatchObject({ title: "Theirs", deleted: false, status: "scheduled" });
  });

  it("lets viewers read and nothing else; members plan and complete", async () => {
    const a = await userWithWorkspace();
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const member = await memberWithRole(a.workspaceId, "member");
    const job = await created(member.token, stop("By a member"));
    expect((await listed(viewer.token, "")).map((j) => j.id)).toEqual([job.id]);
    expect((await call(`/api/routes?date=${DAY}`, { token: viewer.token })).status).toBe(200);
    expect((await post(viewer.token, stop("x"))).status).toBe(403);
    expect((await send("PATCH", `/api/jobs/${job.id}`, viewer.token, { title: "y" })).status).toBe(403);
    expect((await send("POST", `/api/jobs/${job.id}/complete`, viewer.token, {})).status).toBe(403);
    expect((await send("DELETE", `/api/jobs/${job.id}`, viewer.token)).status).toBe(403);
    const csv = await call("/api/jobs/import", {
      method: "POST",
      token: viewer.token,
      headers: { "Content-Type": "text/csv" },
      body: "title,latitude,longitude,address,date,windowStart,windowEnd,vehicleName\nA,1,2,,2026-11-30,,,",
    });
    expect(csv.status).toBe(403);
    expect((await send("DELETE", `/api/jobs/${job.id}`, member.token)).status).toBe(204);
    expect(await listed(a.token, "")).toEqual([]);
  });
});
