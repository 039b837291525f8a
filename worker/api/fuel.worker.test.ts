import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { FuelEntry } from "../../shared/costs/fuel";
import { database } from "../test/db";
import { insertTrip } from "../test/trips";
import { fuelEntries, photos, vehicles } from "../../db/schema";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";

/** The fuel log over REST (issue 42, DESIGN.md "Fuel, costs and renewals") and a vehicle's tank setting. */
const send = (method: string, path: string, token: string, json?: unknown) => call(path, { method, token, json });
const post = (token: string, json: unknown) => send("POST", "/api/fuel-entries", token, json);
const logged = async (token: string, json: unknown) => (await (await post(token, json)).json()) as FuelEntry;
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const fill = (vehicleId: string, at: number, more: Record<string, unknown> = {}) => ({
  vehicleId,
  at: iso(at),
  volumeLitres: 50,
  fullTank: true,
  ...more,
});
const listed = async (token: string, query: string) =>
  ((await (await call(`/api/fuel-entries?${query}`, { token })).json()) as { entries: FuelEntry[] }).entries;
const rowsOf = (workspaceId: string) =>
  database(env.DB).select().from(fuelEntries).where(eq(fuelEntries.workspaceId, workspaceId)).all();

describe("fuel entries API", () => {
  it("logs a fill-up with the vehicle's GPS odometer at that moment, and lists it by vehicle and range", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 10_000);
    const now = Date.now();
    // 120 miles driven since the fill-up three hours ago.
    await insertTrip(a.workspaceId, vehicleId, now - 2 * HOUR, now - HOUR, 120);
    const res = await post(a.token, fill(vehicleId, now - 3 * HOUR, { costCents: 7250, vendor: "Shell" }));
    expect(res.status).toBe(201);
    const entry = (await res.json()) as FuelEntry;
    expect(entry).toMatchObject({ vehicleId, volumeLitres: 50, costCents: 7250, odometerMiles: 9880, flags: [] });
    // A given odometer is kept as typed.
    await post(a.token, fill(vehicleId, now - 30 * HOUR, { odometerMiles: 9500, fullTank: false }));

    const all = await listed(a.token, `vehicleId=${vehicleId}`);
    expect(all.map((e) => [e.odometerMiles, e.fullTank])).toEqual([
      [9880, true],
      [9500, false],
    ]);
    const recent = await listed(a.token, `vehicleId=${vehicleId}&from=${iso(now - 10 * HOUR)}&to=${iso(now)}`);
    expect(recent.map((e) => e.id)).toEqual([entry.id]);
  });

  it("refuses bad input with 400 naming the field, and writes nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const now = Date.now();
    for (const [json, field] of [
      [fill(vehicleId, now, { volumeLitres: 0 }), "volumeLitres"],
      [fill(vehicleId, now, { volumeLitres: "lots" }), "volumeLitres"],
      [fill(vehicleId, now, { at: "yesterday" }), "at"],
      [fill(vehicleId, now + 2 * HOUR), "at"],
      [fill(vehicleId, now, { fullTank: undefined }), "fullTank"],
      [fill(vehicleId, now, { costCents: 12.5 }), "costCents"],
      [fill(vehicleId, now, { photoIds: ["not-a-uuid"] }), "photoIds.0"],
    ] as const) {
      const res = await post(a.token, json);
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { error: { fields: Record<string, string[]> } };
      expect(Object.keys(body.error.fields), JSON.stringify(json)).toContain(field);
    }
    expect((await call("/api/fuel-entries?from=soon", { token: a.token })).status).toBe(400);
    expect(await rowsOf(a.workspaceId)).toEqual([]);
  });

  it("lets members log, owners and admins edit and delete, and viewers only read", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const admin = await memberWithRole(a.workspaceId, "admin");
    const member = await memberWithRole(a.workspaceId, "member");
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    expect((await post(viewer.token, fill(vehicleId, Date.now()))).status).toBe(403);
    const logged = await post(member.token, fill(vehicleId, Date.now()));
    expect(logged.status).toBe(201);
    const { id } = (await logged.json()) as FuelEntry;
    const path = `/api/fuel-entries/${id}`;
    expect((await send("PATCH", path, member.token, { volumeLitres: 45 })).status).toBe(403);
    expect((await send("DELETE", path, member.token)).status).toBe(403);
    const edited = await send("PATCH", path, admin.token, { volumeLitres: 45, vendor: "BP", odometerMiles: null });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id, volumeLitres: 45, vendor: "BP", odometerMiles: null });
    expect((await listed(viewer.token, `vehicleId=${vehicleId}`)).map((e) => e.volumeLitres)).toEqual([45]);
    expect((await send("DELETE", path, a.token)).status).toBe(204);
    expect(await listed(viewer.token, `vehicleId=${vehicleId}`)).toEqual([]);
    // A tombstone, so every device drops its copy; deleting again finds nothing.
    expect((await rowsOf(a.workspaceId))[0]).toMatchObject({ id, deleted: true });
    expect((await send("DELETE", path, a.token)).status).toBe(404);
  });

  it("answers another workspace's vehicle, entry and photo with 404 and never lists its entries", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const theirEntry = await logged(b.token, fill(theirs, Date.now()));
    const theirPhoto = crypto.randomUUID();
    await database(env.DB)
      .insert(photos)
      .values({ id: theirPhoto, workspaceId: b.workspaceId, contentType: "image/png", size: 10 });

    expect((await post(a.token, fill(theirs, Date.now()))).status).toBe(404);
    expect((await post(a.token, fill(mine, Date.now(), { photoIds: [theirPhoto] }))).status).toBe(404);
    expect((await call(`/api/fuel-entries?vehicleId=${theirs}`, { token: a.token })).status).toBe(404);
    expect(await listed(a.token, "")).toEqual([]);
    const path = `/api/fuel-entries/${theirEntry.id}`;
    expect((await send("PATCH", path, a.token, { volumeLitres: 1 })).status).toBe(404);
    expect((await send("DELETE", path, a.token)).status).toBe(404);
    expect((await listed(b.token, "")).map((e) => e.volumeLitres)).toEqual([50]);
  });

  it("flags a fill-up above the tank and an odometer that went backwards", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 20_000);
    const now = Date.now();
    expect((await send("PATCH", `/api/vehicles/${vehicleId}`, a.token, { fuelTankLitres: 80 })).status).toBe(200);
    await post(a.token, fill(vehicleId, now - 50 * HOUR, { odometerMiles: 19_000 }));
    const over = await logged(a.token, fill(vehicleId, now - 40 * HOUR, { volumeLitres: 95, odometerMiles: 19_300 }));
    expect(over.flags).toEqual(["over_tank"]);
    const back = await logged(a.token, fill(vehicleId, now - 30 * HOUR, { odometerMiles: 18_000 }));
    expect(back.flags).toEqual(["odometer_backwards"]);
    // A range that starts after the higher reading still compares with it.
    const ranged = await listed(a.token, `vehicleId=${vehicleId}&from=${iso(now - 35 * HOUR)}`);
    expect(ranged.map((e) => e.flags)).toEqual([["odometer_backwards"]]);
  });
});

describe("GET /api/vehicles/{id}/fuel-economy", () => {
  it("answers full tank to full tank, leaving out a flagged fill-up's stretch, and is scoped to the workspace", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 5000);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    await send("PATCH", `/api/vehicles/${vehicleId}`, a.token, { fuelTankLitres: 80 });
    const gallons = (g: number) => Math.round(g * 3.785411784 * 1000) / 1000;
    const now = Date.now();
    const log = [
      [1000, 10, true],
      [1150, 5, false], // carried into the next full one
      [1300, 10, true],
      [1500, 25, true], // above the tank (80 L): its stretch is left out
      [1700, 10, true],
    ] as const;
    for (const [i, [odometerMiles, g, fullTank]] of log.entries()) {
      await post(
        a.token,
        fill(vehicleId, now - (10 - i) * 24 * HOUR, { odometerMiles, volumeLitres: gallons(g), fullTank }),
      );
    }
    const res = await call(`/api/vehicles/${vehicleId}/fuel-economy`, { token: viewer.token });
    expect(res.status).toBe(200);
    // 300 mi on 15 gal, then 200 mi on 10 gal.
    expect(await res.json()).toMatchObject({ mpg: 20, distanceMiles: 500, entriesUsed: 3, entriesFlagged: 1 });
    const recent = `/api/vehicles/${vehicleId}/fuel-economy?from=${iso(now - 6.5 * 24 * HOUR)}`;
    expect(await (await call(recent, { token: a.token })).json()).toMatchObject({ mpg: 20, distanceMiles: 200 });
    expect((await call(`/api/vehicles/${vehicleId}/fuel-economy?to=later`, { token: a.token })).status).toBe(400);
    expect((await call(`/api/vehicles/${vehicleId}/fuel-economy`, { token: b.token })).status).toBe(404);
  });
});

describe("PATCH /api/vehicles/{id}", () => {
  it("sets and clears the fuel tank, keeps what it is not given, and refuses bad values with the field named", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const path = `/api/vehicles/${vehicleId}`;
    const set = await send("PATCH", path, a.token, { fuelTankLitres: 75.5, make: "Ford" });
    expect(await set.json()).toMatchObject({ id: vehicleId, name: "Truck", make: "Ford", fuelTankLitres: 75.5 });
    const bad = await send("PATCH", path, a.token, { fuelTankLitres: -3 });
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { error: { fields: object } }).error.fields)).toEqual(["fuelTankLitres"]);
    expect(await (await send("PATCH", path, a.token, { name: "Truck 2" })).json()).toMatchObject({
      name: "Truck 2",
      make: "Ford",
      fuelTankLitres: 75.5,
    });
    expect(await (await send("PATCH", path, a.token, { fuelTankLitres: null })).json()).toMatchObject({
      fuelTankLitres: null,
    });
  });

  it("is members' and up, and another workspace's vehicle is a 404", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const viewer = await memberWithRole(a.workspaceId, "viewer");
    const member = await memberWithRole(a.workspaceId, "member");
    expect((await send("PATCH", `/api/vehicles/${vehicleId}`, viewer.token, { fuelTankLitres: 60 })).status).toBe(403);
    expect((await send("PATCH", `/api/vehicles/${vehicleId}`, member.token, { fuelTankLitres: 60 })).status).toBe(200);
    expect((await send("PATCH", `/api/vehicles/${vehicleId}`, b.token, { fuelTankLitres: 1 })).status).toBe(404);
    const row = await database(env.DB).select().from(vehicles).where(eq(vehicles.id, vehicleId)).get();
    expect(row?.fuelTankLitres).toBe(60);
  });
});
