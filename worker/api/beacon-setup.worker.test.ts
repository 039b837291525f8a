import { describe, expect, it } from "vitest";
import { deviceSetupSchema, type DeviceSetup } from "../../shared/fleet/device-setup";
import { call, memberWithRole, workspaceWithBeacon } from "../test/factories";
import { storedPositions } from "../test/positions";
import { overlandAt, owntracksAndroidLocation, owntracksAt, traccarClientAt } from "../fleet/fixtures/device-apps";

/** GET /api/beacons/:vehicleId/setup: one scan configures each app completely, for roles that may see the device id. */
const setupOf = (vehicleId: string, token: string) => call(`/api/beacons/${vehicleId}/setup`, { token });
const fromIp = () => ({
  "CF-Connecting-IP": `10.45.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function setup(vehicleId: string, token: string): Promise<DeviceSetup> {
  const res = await setupOf(vehicleId, token);
  expect(res.status).toBe(200);
  const body = await res.json();
  // Exactly DESIGN.md's shape: nothing more.
  expect(deviceSetupSchema.strict().parse(body)).toEqual(body);
  return body as DeviceSetup;
}

describe("a beacon's setup", () => {
  it("configures each app so its reports reach this beacon", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const s = await setup(beacon.vehicleId, token);
    const now = Date.now();

    // Traccar Client keeps the scanned URL's origin and path as its server, and `id` as its device id.
    const traccar = new URL(s.traccarClient);
    expect(traccar.searchParams.get("id")).toBe(beacon.id);
    const serverUrl = `${traccar.origin}${traccar.pathname}`;
    const fix = await call(new URL(serverUrl).pathname, {
      method: "POST",
      headers: fromIp(),
      json: traccarClientAt(traccar.searchParams.get("id")!, now - 30_000),
    });
    expect(fix.status).toBe(200);

    // OwnTracks posts to its configured url with its deviceId as X-Limit-D.
    const inline = new URL(s.ownTracks).searchParams.get("inline")!;
    const config = JSON.parse(atob(inline)) as { url: string; deviceId: string; mode: number };
    expect(config.mode).toBe(3);
    const located = await call(new URL(config.url).pathname, {
      method: "POST",
      headers: { ...fromIp(), "X-Limit-D": config.deviceId },
      json: owntracksAt(owntracksAndroidLocation, now - 20_000),
    });
    expect(located.status).toBe(200);

    // Overland: its receiver URL and device id.
    const batch = await call(new URL(s.overland.url).pathname, {
      method: "POST",
      headers: fromIp(),
      json: overlandAt(s.overland.deviceId, [now - 10_000]),
    });
    expect(batch.status).toBe(200);
    expect(await storedPositions(beacon.id)).toHaveLength(3);
  });

  it("is for roles that edit the fleet: a member gets it, a viewer 403 without the device id", async () => {
    const { workspaceId, beacon } = await workspaceWithBeacon();
    const member = await memberWithRole(workspaceId, "member");
    expect((await setup(beacon.vehicleId, member.token)).overland.deviceId).toBe(beacon.id);
    const viewer = await memberWithRole(workspaceId, "viewer");
    const refused = await setupOf(beacon.vehicleId, viewer.token);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(beacon.id);
  });

  it("is 404 for another workspace's beacon and for none, 401 without a session", async () => {
    const mine = await workspaceWithBeacon();
    const theirs = await workspaceWithBeacon();
    for (const id of [theirs.beacon.vehicleId, theirs.beacon.id, crypto.randomUUID()]) {
      const res = await setupOf(id, mine.token);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
    expect((await call(`/api/beacons/${mine.beacon.vehicleId}/setup`)).status).toBe(401);
  });
});
