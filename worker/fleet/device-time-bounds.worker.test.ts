import { describe, expect, it } from "vitest";
import type { BeaconHealth } from "../../shared/fleet/beacon-health";
import { call, workspaceWithBeacon } from "../test/factories";
import { storedPositions } from "../test/positions";
import { overlandAt, owntracksAndroidLocation, owntracksAt, traccarClientAt } from "./fixtures/device-apps";

/**
 * Issue 39, finding 6: a device time before 2000-01-01 is refused (400) in a request of its own
 * and dropped, counted as too_old, in a batch; no time a device can send answers 500.
 */
type ErrorBody = { error: { code: string; message: string } };
const fromIp = () => ({
  "CF-Connecting-IP": `10.39.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});
const IN_1970 = Date.UTC(1970, 0, 1, 0, 1);

async function health(token: string, vehicleId: string) {
  const res = await call(`/api/beacons/${vehicleId}/health`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as BeaconHealth;
}

const osmand = (params: Record<string, string>) =>
  call(`/api/ingest/osmand?${new URLSearchParams(params)}`, { headers: fromIp() });
const owntracksRaw = (deviceId: string, body: string) =>
  call("/api/ingest/owntracks", {
    method: "POST",
    headers: { ...fromIp(), "X-Limit-D": deviceId, "Content-Type": "application/json" },
    body,
  });
const postJson = (path: string, body: unknown) => call(path, { method: "POST", headers: fromIp(), json: body });

describe("a lone report dated before 2000", () => {
  it("is refused 400 by every protocol, and nothing is stored", async () => {
    const { beacon } = await workspaceWithBeacon();
    const answers = [
      await osmand({ id: beacon.id, lat: "41.88", lon: "-87.62", timestamp: String(IN_1970 / 1000) }),
      await postJson("/api/ingest/osmand", traccarClientAt(beacon.id, IN_1970)),
      await owntracksRaw(beacon.id, JSON.stringify(owntracksAt(owntracksAndroidLocation, IN_1970))),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toContain("before 2000-01-01");
    }
    expect(await storedPositions(beacon.id)).toEqual([]);
  });

  it("never answers 500, whatever the number: OsmAnd's -9e15, OwnTracks' -1e400, Overland's far years", async () => {
    const { beacon } = await workspaceWithBeacon();
    for (const timestamp of ["-9e15", "9e15", "-1", "0", "1e400", "-1e400", "NaN"]) {
      const res = await osmand({ id: beacon.id, lat: "41.88", lon: "-87.62", timestamp });
      expect(res.status, `timestamp=${timestamp}`).toBe(400);
    }
    const raw = `{"_type":"location","lat":41.88,"lon":-87.62,"tst":-1e400}`;
    for (const body of [raw, raw.replace("-1e400", "1e400"), raw.replace("-1e400", "-9e15")]) {
      const res = await owntracksRaw(beacon.id, body);
      expect(res.status, body).toBe(400);
    }
    const overland = overlandAt(beacon.id, [Date.now() - 1000]);
    for (const timestamp of ["+275761-01-01T00:00:00Z", "-271822-01-01T00:00:00Z", "0000-01-01T00:00:00Z"]) {
      const body = {
        locations: [{ ...overland.locations[0], properties: { ...overland.locations[0]!.properties, timestamp } }],
      };
      const res = await postJson("/api/ingest/overland", body);
      expect(res.status, timestamp).toBeLessThan(500);
    }
    expect(await storedPositions(beacon.id)).toEqual([]);
  });
});

describe("a batch holding reports dated before 2000", () => {
  it("keeps the rest, drops those as too_old and counts them on the beacon (Overland, OsmAnd's JSON)", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const now = Date.now();
    const res = await postJson("/api/ingest/overland", overlandAt(beacon.id, [IN_1970, now - 10_000]));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "ok" });
    const json = await postJson("/api/ingest/osmand", {
      device_id: beacon.id,
      location: [
        { timestamp: "1999-08-22T00:00:00Z", coords: { latitude: 41.9, longitude: -87.6 } },
        { timestamp: now - 5_000, coords: { latitude: 41.9, longitude: -87.6 } },
      ],
    });
    expect(await json.json()).toMatchObject({ ok: true, outcomes: ["too_old", "stored"] });
    expect((await storedPositions(beacon.id)).map((p) => p.recordedAt)).toEqual([now - 10_000, now - 5_000]);
    const h = await health(token, beacon.vehicleId);
    expect(h.rejected.too_old).toBe(2);
    expect(h.lastRejectedReason).toBe("too_old");
  });
});
