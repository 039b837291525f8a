import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pullResponseSchema, SCHEMA_VERSION } from "../../shared/sync/sync-protocol";
import { decodeSyncedValue } from "../../shared/sync/synced-value";
import { telemetryKey, type Telemetry } from "../../shared/fleet/telemetry";
import { vehicleKey, type Vehicle } from "../../shared/fleet/vehicle";
import { vehicleTable } from "../../shared/fleet/vehicle-fields";
import { vehicleEventKey, type VehicleEvent } from "../../shared/fleet/vehicle-event";
import { database } from "../test/db";
import { telemetry, vehicleEvents } from "../../db/schema";
import { call, insertVehicle, userWithWorkspace } from "../test/factories";
import { bumpVersion, versionOf } from "../test/db";

/** The compact pull payload (docs/decisions/0013), as it goes over the wire and as screens read it. */
type Op = { op: string; key?: string; value?: unknown };
const db = () => database(env.DB);

async function pull(
  token: string,
  clientGroupID: string,
  cookie: number | null = null,
  schemaVersion = SCHEMA_VERSION,
) {
  const res = await call("/api/sync/pull", {
    method: "POST",
    token,
    json: { pullVersion: 1, clientGroupID, cookie, profileID: "p", schemaVersion },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  const json = JSON.parse(text) as { cookie: number; patch: Op[]; error?: string };
  pullResponseSchema.parse(json);
  return { ...json, text };
}
const valueOf = (patch: Op[], key: string) =>
  decodeSyncedValue(key, patch.find((op) => op.op === "put" && op.key === key)?.value);

describe("compact pull payload", () => {
  it("sends no nulls and no ids inside values, rounds coordinates, and decodes to what the screens read", async () => {
    const a = await userWithWorkspace();
    const vehicleId = await insertVehicle(a.workspaceId, {
      name: "Unit 7",
      year: null,
      make: "Ford",
      model: null,
      vin: null,
      driver: null,
      classification: "SUV",
    });
    const eventId = "0mhx2k3l0-1a2b3c4d";
    await db().batch([
      bumpVersion(db(), a.workspaceId),
      db()
        .insert(telemetry)
        .values({
          id: crypto.randomUUID(),
          workspaceId: a.workspaceId,
          vehicleId,
          status: "moving",
          statusTimestamp: 1_763_900_000_000,
          speed: 13.411200000000001,
          odometer: 120_345.678,
          fuel: null,
          latitude: 41.87811412345678,
          longitude: -87.62979812345678,
          heading: 271.4,
          recordedAt: 1_763_900_004_000,
          version: versionOf(a.workspaceId),
        }),
      db()
        .insert(vehicleEvents)
        .values({
          id: eventId,
          workspaceId: a.workspaceId,
          vehicleId,
          type: "STOP",
          startTime: 1_763_800_000_000,
          endTime: null,
          latitude: 30.2672001,
          longitude: -97.7430608,
          street: "Congress Ave",
          city: "Austin",
          version: versionOf(a.workspaceId),
        }),
    ]);

    const res = await pull(a.token, crypto.randomUUID());
    const values = res.patch.filter((op) => op.op === "put").map((op) => JSON.stringify(op.value));
    expect(values).toHaveLength(3);
    for (const v of values) {
      expect(v).not.toContain("null");
      expect(v).not.toContain(vehicleId);
      expect(v).not.toContain(eventId);
    }
    // Every number in the payload has at most 6 decimals.
    expect(res.text).not.toMatch(/\d\.\d{7,}/);

    expect(valueOf(res.patch, vehicleKey(vehicleId))).toEqual({
      id: vehicleId,
      ...vehicleTable.given({ name: "Unit 7", make: "Ford" }),
      driver: null,
      driverId: null,
      classification: { value: "SUV" },
      status: "ACTIVE",
      beaconStatus: "PENDING",
      fuelTankLitres: null,
    } satisfies Vehicle);
    expect(valueOf(res.patch, telemetryKey(vehicleId))).toEqual({
      id: vehicleId,
      vehicleId,
      status: "moving",
      statusTimestamp: 1_763_900_000_000,
      speed: 13.41,
      odometer: 120_346,
      fuel: null,
      latitude: 41.878114,
      longitude: -87.629798,
      heading: 271,
      recordedAt: 1_763_900_004_000,
    } satisfies Telemetry);
    expect(valueOf(res.patch, vehicleEventKey(vehicleId, eventId))).toEqual({
      id: eventId,
      vehicleId,
      type: "STOP",
      startTime: 1_763_800_000_000,
      endTime: null,
      location: {
        latitude: 30.2672,
        longitude: -97.743061,
        streetNumber: null,
        street: "Congress Ave",
        city: "Austin",
        state: null,
        postalCode: null,
      },
      distance: null,
      averageSpeed: null,
      fuelFrom: null,
      fuelTo: null,
    } satisfies VehicleEvent);
  });

  it("keeps only each vehicle's 3 latest events synced after migration 0004; older ones go out as del and stay in D1", async () => {
    const a = await userWithWorkspace();
    const b = await userWithWorkspace();
    const mine = await insertVehicle(a.workspaceId);
    const theirs = await insertVehicle(b.workspaceId);
    const events = (workspaceId: string, vehicleId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${vehicleId}-e${i}`,
        workspaceId,
        vehicleId,
        type: "TRANSIT",
        startTime: 1000 + i,
        endTime: 1001 + i,
        version: versionOf(workspaceId),
      }));
    await db().batch([
      bumpVersion(db(), a.workspaceId),
      db()
        .insert(vehicleEvents)
        .values(events(a.workspaceId, mine, 5)),
    ]);
    await db().batch([
      bumpVersion(db(), b.workspaceId),
      db()
        .insert(vehicleEvents)
        .values(events(b.workspaceId, theirs, 2)),
    ]);
    const group = crypto.randomUUID();
    const first = await pull(a.token, group);
    expect(first.patch.filter((op) => op.key?.startsWith("event/"))).toHaveLength(5);
    const theirGroup = crypto.randomUUID();
    const theirFirst = await pull(b.token, theirGroup);

    // What a deployment applies to a database written under the 10-event rule.
    const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: { name: string; queries: string[] }[] };
    const migration = TEST_MIGRATIONS.find((m) => m.name.startsWith("0004_"))!;
    for (const q of migration.queries) await env.DB.prepare(q).run();

    const next = await pull(a.token, group, first.cookie);
    expect(next.patch).toEqual([
      { op: "del", key: vehicleEventKey(mine, `${mine}-e0`) },
      { op: "del", key: vehicleEventKey(mine, `${mine}-e1`) },
    ]);
    const fresh = await pull(a.token, crypto.randomUUID());
    expect(fresh.patch.filter((op) => op.key?.startsWith("event/")).map((op) => op.key)).toEqual(
      [2, 3, 4].map((i) => vehicleEventKey(mine, `${mine}-e${i}`)),
    );
    // The history is kept: all five rows are still in D1.
    expect(await db().select().from(vehicleEvents).where(eq(vehicleEvents.vehicleId, mine)).all()).toHaveLength(5);
    // A workspace with nothing to prune is left alone.
    expect((await pull(b.token, theirGroup, theirFirst.cookie)).patch).toEqual([]);
  });

  it("refuses pulls of the previous schema: an open tab of yesterday's build reloads into a new store", async () => {
    const a = await userWithWorkspace();
    await insertVehicle(a.workspaceId, { name: "Old" });
    expect((await pull(a.token, crypto.randomUUID(), null, "1")).error).toBe("VersionNotSupported");
  });
});
