import { describe, expect, it } from "vitest";
import type { BeaconHealth } from "../../shared/fleet/beacon-health";
import { call, workspaceWithBeacon } from "../test/factories";
import { storedPositions } from "../test/positions";
import {
  overlandAt,
  overlandLargestBatch,
  owntracksAndroidLocation,
  owntracksAt,
  traccarClientAt,
} from "../fleet/fixtures/device-apps";

/**
 * Issue 44: the apps as they really send (recorded payloads in worker/fleet/fixtures/device-apps.ts),
 * not only the shapes of DESIGN.md. Each case failed before: 413 for Overland's larger batches,
 * 400 for its Bearer token, 400 for OwnTracks' empty body, 405 for Traccar Client at `/`.
 */
type ErrorBody = { error: { code: string; message: string } };
const fromIp = () => ({
  "CF-Connecting-IP": `10.44.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function health(token: string, vehicleId: string) {
  const res = await call(`/api/beacons/${vehicleId}/health`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as BeaconHealth;
}

const overland = (body: unknown, headers: Record<string, string> = {}) =>
  call("/api/ingest/overland", { method: "POST", headers: { ...fromIp(), ...headers }, json: body });

describe("Overland at its own settings", () => {
  it("takes its largest batch, 1,000 points (over 600 KB), in one request answered ok", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const end = Date.now() - 60_000;
    const body = JSON.stringify(overlandLargestBatch(beacon.id, end));
    expect(body.length).toBeGreaterThan(600 * 1024);
    const res = await call("/api/ingest/overland", {
      method: "POST",
      headers: { ...fromIp(), "Content-Type": "application/json" },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "ok" });
    expect(await storedPositions(beacon.id)).toHaveLength(1_000);
    const h = await health(token, beacon.vehicleId);
    expect(h.lastApp).toBe("overland");
    expect(h.rejected).toEqual({ clock_ahead: 0, too_old: 0, throttled: 0, no_position: 0 });
  });

  it("keeps the device's throttle: a second full batch at once is 429 with Retry-After, the first stays stored", async () => {
    const { beacon } = await workspaceWithBeacon();
    const headers = fromIp();
    const end = Date.now() - 60_000;
    expect((await overland(overlandLargestBatch(beacon.id, end - 10_000_000), headers)).status).toBe(200);
    const again = await overland(overlandLargestBatch(beacon.id, end), headers);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await storedPositions(beacon.id)).toHaveLength(1_000);
  });

  it("refuses more than 1,000 points, and a body over 2 MB, with a JSON error before storing anything", async () => {
    const { beacon } = await workspaceWithBeacon();
    const tooMany = await overland(overlandLargestBatch(beacon.id, Date.now() - 60_000, 1_001));
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as ErrorBody).error.message).toContain("At most 1000 locations");
    const huge = await overland({ ...overlandAt(beacon.id, [Date.now() - 1000]), padding: "x".repeat(2_200_000) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: "payload_too_large" } });
    expect(await storedPositions(beacon.id)).toEqual([]);
  });

  it("takes the access token (Authorization: Bearer) as the device id when device_id is empty", async () => {
    const { beacon } = await workspaceWithBeacon();
    const now = Date.now();
    const res = await overland(overlandAt("", [now - 20_000, now - 10_000]), { Authorization: `Bearer ${beacon.id}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "ok" });
    expect(await storedPositions(beacon.id)).toHaveLength(2);
    // A token that is no device id is refused like any unknown id.
    const unknown = await overland(overlandAt("", [now - 5_000]), { Authorization: "Bearer not-a-device" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as ErrorBody).error.message).toBe("Unknown device id");
  });
});

describe("OwnTracks", () => {
  it("answers a zero-length body 200 [] (a friend deleted in the app), as its documentation asks", async () => {
    const { beacon } = await workspaceWithBeacon();
    const res = await call("/api/ingest/owntracks", {
      method: "POST",
      headers: { ...fromIp(), "X-Limit-D": beacon.id, "Content-Type": "application/json", "Content-Length": "0" },
      body: "",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it("names its app on the beacon", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const res = await call("/api/ingest/owntracks", {
      method: "POST",
      headers: { ...fromIp(), "X-Limit-D": beacon.id },
      json: owntracksAt(owntracksAndroidLocation, Date.now() - 5_000),
    });
    expect(res.status).toBe(200);
    expect((await health(token, beacon.vehicleId)).lastApp).toBe("owntracks");
  });
});

describe("Traccar Client at the address its user typed", () => {
  it("stores its JSON fix posted to / (the server's address alone) as at /api/ingest/osmand", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const at = Date.now() - 30_000;
    const res = await call("/", { method: "POST", headers: fromIp(), json: traccarClientAt(beacon.id, at) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, outcomes: ["stored"] });
    const [stored] = await storedPositions(beacon.id);
    expect(stored).toMatchObject({ recordedAt: at, latitude: 41.881832, longitude: -87.623177 });
    expect((await health(token, beacon.vehicleId)).lastApp).toBe("traccar_client");
  });

  it("takes OsmAnd's query at / too, and leaves every other request to / to the app's pages", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const q = new URLSearchParams({ id: beacon.id, lat: "41.88", lon: "-87.62", timestamp: String(Date.now() - 1000) });
    const res = await call(`/?${q}`, { method: "POST", headers: fromIp() });
    expect(res.status).toBe(200);
    expect((await health(token, beacon.vehicleId)).lastApp).toBe("osmand");
    // Not a tracker's: the page handler answers (a 404 in these tests, which build no UI), not ingestion.
    const page = await call("/", { method: "POST", body: new URLSearchParams({ intent: "x" }) });
    expect(page.headers.get("Content-Type") ?? "").not.toContain("application/json");
  });
});

describe("a tracker's report with no coordinates (issue 56)", () => {
  // Traccar's own OsmAnd decoder test: cells and Wi-Fi access points, no position.
  const cellsAndWifi = (id: string) =>
    `/api/ingest/osmand?id=${id}&timestamp=1377177267&cell=257,02,16,2224&cell=257,02,16,2223,-90` +
    "&wifi=00-14-22-01-23-45,-80&wifi=00-1C-B3-09-85-15,-70";

  it("is acknowledged, so the device stops resending it, and stores no position", async () => {
    const { beacon } = await workspaceWithBeacon();
    const res = await call(cellsAndWifi(beacon.id), { headers: fromIp() });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcomes: ["no_position"] });
    expect(await storedPositions(beacon.id)).toEqual([]);
  });

  it("sent as a query (GET) is counted on the beacon's health as a report without a position", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const before = Date.now();
    for (let i = 0; i < 2; i++) expect((await call(cellsAndWifi(beacon.id), { headers: fromIp() })).status).toBe(200);
    const h = await health(token, beacon.vehicleId);
    expect(h.rejected).toEqual({ clock_ahead: 0, too_old: 0, throttled: 0, no_position: 2 });
    expect(h.lastNoPositionAt).toBeGreaterThanOrEqual(before);
    // Nothing of where the vehicle is: its last report (with coordinates) and the last refusal stay none.
    expect(h).toMatchObject({ lastReportAt: null, lastRejectedAt: null, reportsToday: 0 });
  });

  it("posted as a form is counted the same way", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    const form = new URLSearchParams({ id: beacon.id, timestamp: "1377177267", cell: "257,02,16,2224" });
    form.append("wifi", "00-14-22-01-23-45,-80");
    const res = await call("/api/ingest/osmand", {
      method: "POST",
      headers: { ...fromIp(), "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, outcomes: ["no_position"] });
    expect((await health(token, beacon.vehicleId)).rejected.no_position).toBe(1);
  });

  it("counts on its own workspace's beacon only: another workspace's beacon and health are untouched", async () => {
    const mine = await workspaceWithBeacon();
    const other = await workspaceWithBeacon();
    expect((await call(cellsAndWifi(mine.beacon.id), { headers: fromIp() })).status).toBe(200);
    expect((await health(mine.token, mine.beacon.vehicleId)).rejected.no_position).toBe(1);
    expect((await health(other.token, other.beacon.vehicleId)).rejected.no_position).toBe(0);
    // The other workspace cannot read this beacon's count at all.
    const peek = await call(`/api/beacons/${mine.beacon.vehicleId}/health`, { token: other.token });
    expect(peek.status).toBe(404);
  });

  it("still counts a position after it: a fix that follows is stored as usual", async () => {
    const { token, beacon } = await workspaceWithBeacon();
    await call(cellsAndWifi(beacon.id), { headers: fromIp() });
    const fix = await call(`/api/ingest/osmand?id=${beacon.id}&lat=41.88&lon=-87.63&timestamp=${Date.now()}`, {
      headers: fromIp(),
    });
    expect(((await fix.json()) as { outcomes: string[] }).outcomes).toEqual(["stored"]);
    const h = await health(token, beacon.vehicleId);
    expect(h.rejected.no_position).toBe(1);
    expect(h.lastReportAt).not.toBeNull();
    expect(await storedPositions(beacon.id)).toHaveLength(1);
  });

  it("from an unknown device, or with nothing to locate it by, is refused as before", async () => {
    const unknown = await call(cellsAndWifi("no-such-device"), { headers: fromIp() });
    expect(unknown.status).toBe(400);
    const { beacon } = await workspaceWithBeacon();
    const bare = await call(`/api/ingest/osmand?id=${beacon.id}&timestamp=1377177267`, { headers: fromIp() });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as ErrorBody).error.message).toContain("Unreadable position");
  });
});
