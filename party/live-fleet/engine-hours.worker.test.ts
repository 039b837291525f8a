import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../worker/test/db";
import { vehicles } from "../../db/schema";
import { call, report, userWithWorkspace } from "../../worker/test/factories";
import { ingest } from "../../worker/test/ingest";

// Engine hours as a module of the ingestion fold (docs/decisions/0032): kept per vehicle in the
// workspace's object from the time with the ignition on, and flushed to vehicles.engine_seconds.
const db = () => database(env.DB);
const T0 = Date.now() - 3 * 3_600_000;
const MIN = 60_000;

async function beaconOf(token: string, workspaceId: string) {
  const res = await call("/api/beacons/order", { method: "POST", token, json: { workspaceId, count: 1 } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string; vehicleId: string }[])[0]!;
}
const engineSecondsOf = async (vehicleId: string) =>
  (await db().select({ s: vehicles.engineSeconds }).from(vehicles).where(eq(vehicles.id, vehicleId)).get())!.s;

describe("engine hours", () => {
  it("are kept by ingestion and flushed to the vehicle's engine_seconds, counting on across requests", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await ingest([
      report(beacon.id, T0, { ignition: true }),
      report(beacon.id, T0 + 2 * MIN, { ignition: true, latitude: 40.01 }),
    ]);
    expect(await engineSecondsOf(beacon.vehicleId)).toBe(120);
    await ingest([
      report(beacon.id, T0 + 5 * MIN, { ignition: false, latitude: 40.02 }),
      report(beacon.id, T0 + 20 * MIN, { ignition: false }),
    ]);
    expect(await engineSecondsOf(beacon.vehicleId)).toBe(300);
  });

  it("count on from the total D1 already has for the vehicle", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    await db()
      .update(vehicles)
      .set({ engineSeconds: 1000 * 3600 })
      .where(eq(vehicles.id, beacon.vehicleId));
    await ingest([report(beacon.id, T0, { ignition: true }), report(beacon.id, T0 + MIN, { ignition: true })]);
    expect(await engineSecondsOf(beacon.vehicleId)).toBe(1000 * 3600 + 60);
  });

  it("count the moving time of a tracker that reports no ignition", async () => {
    const a = await userWithWorkspace();
    const beacon = await beaconOf(a.token, a.workspaceId);
    const moving = (i: number) => report(beacon.id, T0 + i * 30_000, { latitude: 40 + i * 0.003, speed: 12 });
    await ingest(Array.from({ length: 8 }, (_, i) => moving(i)));
    const seconds = await engineSecondsOf(beacon.vehicleId);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(7 * 30);
  });
});
