import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { driverKey } from "../../shared/fleet/driver";
import { SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { vehicleKey } from "../../shared/fleet/vehicle";
import { database } from "../../db/client";
import { vehicles } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { firstPull } from "../test/sync";

/** Drivers sync like vehicles (docs/decisions/0018): pushed, pulled under driver/{id}, assigned to vehicles, kept per workspace. */

let nextId = 1;
const push = (token: string, mutations: { name: string; args: unknown }[]) =>
  call("/api/sync/push", {
    method: "POST",
    token,
    json: {
      pushVersion: 1,
      clientGroupID: crypto.randomUUID(),
      profileID: "p",
      schemaVersion: SCHEMA_VERSION,
      mutations: mutations.map((m, i) => ({
        clientID: `c-${nextId++}`,
        id: 1,
        name: m.name,
        args: m.args,
        timestamp: i,
      })),
    },
  });

async function pulled(token: string) {
  const res = await firstPull(token);
  expect(res.status).toBe(200);
  const { patch } = (await res.json()) as { patch: { op: string; key: string; value: unknown }[] };
  return new Map(patch.filter((p) => p.op === "put").map((p) => [p.key, decodeSyncedValue(p.key, p.value)]));
}

describe("drivers", () => {
  it("are created, edited and assigned by push, and pulled under driver/{id} with the vehicle naming its driver", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId);
    const id = crypto.randomUUID();
    expect(
      (
        await push(a.token, [
          { name: "createDriver", args: { id, name: "Ana Ruiz", email: "ana@fleet.test", phone: null } },
        ])
      ).status,
    ).toBe(200);
    expect((await push(a.token, [{ name: "assignDriver", args: { vehicleId, driverId: id } }])).status).toBe(200);
    expect(
      (
        await push(a.token, [
          { name: "updateDriver", args: { id, name: "Ana R. Ruiz", email: "ana@fleet.test", phone: "+1 555 0100" } },
        ])
      ).status,
    ).toBe(200);
    const store = await pulled(a.token);
    expect(store.get(driverKey(id))).toEqual({
      id,
      name: "Ana R. Ruiz",
      email: "ana@fleet.test",
      phone: "+1 555 0100",
    });
    expect(store.get(vehicleKey(vehicleId))).toMatchObject({ driverId: id, driver: "Ana R. Ruiz" });

    await push(a.token, [{ name: "assignDriver", args: { vehicleId, driverId: null } }]);
    expect((await pulled(a.token)).get(vehicleKey(vehicleId))).toMatchObject({ driverId: null, driver: null });
  });

  it("stay in their workspace: another workspace's driver cannot be assigned, edited or pulled", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const theirs = crypto.randomUUID();
    await push(b.token, [{ name: "createDriver", args: { id: theirs, name: "Theirs", email: null, phone: null } }]);
    const mine = await insertVehicle(a.workspaceId);
    await push(a.token, [{ name: "assignDriver", args: { vehicleId: mine, driverId: theirs } }]);
    await push(a.token, [{ name: "updateDriver", args: { id: theirs, name: "Hijacked", email: null, phone: null } }]);
    // Creating with a taken id does not take it over either.
    await push(a.token, [{ name: "createDriver", args: { id: theirs, name: "Clone", email: null, phone: null } }]);
    expect((await database(env.DB).select().from(vehicles).where(eq(vehicles.id, mine)).get())!.driverId).toBeNull();
    expect((await pulled(a.token)).has(driverKey(theirs))).toBe(false);
    expect((await pulled(b.token)).get(driverKey(theirs))).toMatchObject({ name: "Theirs" });
  });

  it("refuse bad input without effects: no name, a bad e-mail or phone", async () => {
    const a = await userWithWorkspace();
    const id = crypto.randomUUID();
    await push(a.token, [{ name: "createDriver", args: { id, name: "", email: "x", phone: "abc" } }]);
    expect((await pulled(a.token)).has(driverKey(id))).toBe(false);
  });
});
