import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { decodeFuelEntry, fuelEntryKey, type FuelEntryWire } from "../../shared/costs/fuel";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { database } from "../test/db";
import { fuelEntries, vehicles } from "../../db/schema";
import { bumpVersion, versionOf } from "../test/db";
import { call, memberWithRole, userWithWorkspace, vehicleWithOdometer } from "../test/factories";
import { pushMutations as push, pullPatch } from "../test/sync";

/**
 * Fill-ups through sync (issue 42, docs/decisions/0045): logged offline by a member as a pushed
 * mutation, corrected or removed by owners and admins, and pulled in a bounded recent window.
 */
type Patch = { op: string; key: string; value?: unknown }[];
const DAY = 86_400_000;

const pull = (token: string, cookie: unknown = null, clientGroupID = crypto.randomUUID()) =>
  pullPatch(token, cookie, clientGroupID);
const putsOf = (patch: Patch) => new Map(patch.filter((p) => p.op === "put").map((p) => [p.key, p.value]));
const row = (id: string) => database(env.DB).select().from(fuelEntries).where(eq(fuelEntries.id, id)).get();

/** A fill-up written as the REST route writes one, `daysAgo` days back. */
async function insertFill(workspaceId: string, vehicleId: string, daysAgo: number) {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  const at = Date.now() - daysAgo * DAY;
  await db.batch([
    bumpVersion(db, workspaceId),
    db
      .insert(fuelEntries)
      .values({ id, workspaceId, vehicleId, at, volumeLitres: 40, version: versionOf(workspaceId) }),
  ]);
  return id;
}

describe("fuel entries through sync", () => {
  it("applies a member's fill-up as the REST route would (odometer from the vehicle, the caller as logger) and pulls it", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 12_000);
    const id = crypto.randomUUID();
    const at = new Date(Date.now() - 60_000).toISOString();
    const answer = await push(member.token, [
      { name: "logFuelEntry", args: { id, vehicleId, at, volumeLitres: 61.5, fullTank: false, costCents: 9000 } },
    ]);
    expect(answer.refused ?? []).toEqual([]);
    expect(await row(id)).toMatchObject({ vehicleId, odometerMiles: 12_000, createdByUserId: member.userId });
    const value = putsOf((await pull(a.token)).patch).get(fuelEntryKey(id)) as FuelEntryWire;
    expect(decodeFuelEntry(id, value)).toMatchObject({
      vehicleId,
      at: Math.floor(Date.parse(at) / 1000) * 1000,
      volumeLitres: 61.5,
      costCents: 9000,
      fullTank: false,
      odometerMiles: 12_000,
    });
  });

  it("refuses what the API would answer with a 4xx, writing nothing: another workspace's vehicle, a replayed id, bad fields", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await vehicleWithOdometer(a.workspaceId, 100);
    const theirs = await vehicleWithOdometer(b.workspaceId, 100);
    const at = new Date().toISOString();
    const taken = await insertFill(b.workspaceId, theirs, 1);
    const stranger = crypto.randomUUID();
    await push(a.token, [
      { name: "logFuelEntry", args: { id: stranger, vehicleId: theirs, at, volumeLitres: 40, fullTank: true } },
      { name: "logFuelEntry", args: { id: taken, vehicleId: mine, at, volumeLitres: 40, fullTank: true } },
      {
        name: "logFuelEntry",
        args: { id: crypto.randomUUID(), vehicleId: mine, at, volumeLitres: -1, fullTank: true },
      },
      { name: "updateFuelEntry", args: { id: taken, volumeLitres: 1 } },
      { name: "deleteFuelEntry", args: { id: taken } },
    ]);
    expect(await row(stranger)).toBeUndefined();
    expect(await row(taken)).toMatchObject({
      workspaceId: b.workspaceId,
      vehicleId: theirs,
      volumeLitres: 40,
      deleted: false,
    });
    expect(
      await database(env.DB).select().from(fuelEntries).where(eq(fuelEntries.workspaceId, a.workspaceId)).all(),
    ).toEqual([]);
  });

  it("refuses a member's edit or delete for the role; an owner's reach every device, the delete as a del", async () => {
    const a = await userWithWorkspace();
    const member = await memberWithRole(a.workspaceId, "member");
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const id = await insertFill(a.workspaceId, vehicleId, 2);
    const before = await pull(a.token);
    const refused = await push(member.token, [
      { name: "updateFuelEntry", args: { id, volumeLitres: 10 } },
      { name: "deleteFuelEntry", args: { id } },
    ]);
    expect(refused.refused?.map((r) => r.name)).toEqual(["updateFuelEntry", "deleteFuelEntry"]);
    expect(await row(id)).toMatchObject({ volumeLitres: 40, deleted: false });

    await push(a.token, [{ name: "updateFuelEntry", args: { id, volumeLitres: 42.25, vendor: "Costco" } }]);
    const edited = await pull(a.token, before.cookie);
    expect(decodeFuelEntry(id, putsOf(edited.patch).get(fuelEntryKey(id)) as FuelEntryWire)).toMatchObject({
      volumeLitres: 42.25,
      vendor: "Costco",
    });
    await push(a.token, [{ name: "deleteFuelEntry", args: { id } }]);
    const deleted = await pull(a.token, edited.cookie);
    expect(deleted.patch).toContainEqual({ op: "del", key: fuelEntryKey(id) });
  });

  it("carries the last 90 days in a first sync, and any change since the cookie whatever its date", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    const recent = await insertFill(a.workspaceId, vehicleId, 89);
    const old = await insertFill(a.workspaceId, vehicleId, 91);
    const first = await pull(a.token);
    const keys = putsOf(first.patch);
    expect(keys.has(fuelEntryKey(recent))).toBe(true);
    expect(keys.has(fuelEntryKey(old))).toBe(false);
    const late = await insertFill(a.workspaceId, vehicleId, 200);
    expect(putsOf((await pull(a.token, first.cookie)).patch).has(fuelEntryKey(late))).toBe(true);
  });

  it("keeps the tank when a tab of an older build saves the vehicle's settings without it; null clears it", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    await call(`/api/vehicles/${vehicleId}`, { method: "PATCH", token: a.token, json: { fuelTankLitres: 70 } });
    const identity = { id: vehicleId, name: "Truck 9", vin: null, year: null, make: null, model: null };
    await push(a.token, [{ name: "updateVehicle", args: identity }]);
    const tank = async () =>
      (await database(env.DB).select().from(vehicles).where(eq(vehicles.id, vehicleId)).get())?.fuelTankLitres;
    expect(await tank()).toBe(70);
    await push(a.token, [{ name: "updateVehicle", args: { ...identity, fuelTankLitres: null } }]);
    expect(await tank()).toBeNull();
  });

  it("syncs the vehicle's fuel tank set over REST", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 100);
    await call(`/api/vehicles/${vehicleId}`, { method: "PATCH", token: a.token, json: { fuelTankLitres: 90 } });
    expect(putsOf((await pull(a.token)).patch).get(vehicleKey(vehicleId))).toMatchObject({ ft: 90 });
  });
});

describe("the first sync's cost of fuel", () => {
  it("grows by at most 120 B per recent fill-up (ids packed, a positional value); fill-ups older than 90 days cost nothing", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await vehicleWithOdometer(a.workspaceId, 12_000);
    const size = async () => JSON.stringify(await pull(a.token)).length;
    const before = await size();
    const log = (daysAgo: number) =>
      call("/api/fuel-entries", {
        method: "POST",
        token: a.token,
        json: {
          vehicleId,
          at: new Date(Date.now() - daysAgo * DAY).toISOString(),
          volumeLitres: 58.674,
          costCents: 5270,
          fullTank: true,
          odometerMiles: 12_345.6,
        },
      });
    for (let i = 0; i < 10; i++) expect((await log(5)).status).toBe(201);
    const after = await size();
    for (let i = 0; i < 10; i++) await log(120);
    const perEntry = (after - before) / 10;
    console.log(`first sync: ${perEntry} B per recent fill-up`);
    expect(perEntry).toBeLessThanOrEqual(120);
    expect(await size()).toBe(after);
  });
});
