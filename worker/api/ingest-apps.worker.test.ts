import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../db/client";
import { telemetry } from "../../db/schema";
import { call, userWithWorkspace } from "../test/factories";
import {
  overlandAt,
  overlandBatch,
  owntracksAndroidLocation,
  owntracksAt,
  owntracksIosLocation,
  owntracksOtherMessages,
} from "../fleet/fixtures/device-apps";

/** OwnTracks and Overland: their real payloads through their parsers into the one ingestion path. */
type ErrorBody = { error: { code: string; message: string } };
const telemetryOf = (vehicleId: string) =>
  database(env.DB).select().from(telemetry).where(eq(telemetry.vehicleId, vehicleId)).get();
const fromIp = () => ({
  "CF-Connecting-IP": `10.30.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
});

async function beacon() {
  const a = await userWithWorkspace();
  const res = await call("/api/beacons/order", {
    method: "POST",
    token: a.token,
    json: { workspaceId: a.workspaceId, count: 1 },
  });
  expect(res.status).toBe(201);
  const [b] = (await res.json()) as { id: string; vehicleId: string }[];
  return b!;
}

const owntracks = (deviceId: string | null, body: unknown) =>
  call("/api/ingest/owntracks", {
    method: "POST",
    headers: { ...fromIp(), ...(deviceId === null ? {} : { "X-Limit-D": deviceId, "X-Limit-U": "fleet" }) },
    json: body,
  });
const overland = (body: unknown, query = "") =>
  call(`/api/ingest/overland${query}`, { method: "POST", headers: fromIp(), json: body });

describe("OwnTracks HTTP mode", () => {
  it("stores Android's and iOS's location messages, answering []", async () => {
    const b = await beacon();
    const now = Date.now();
    const android = await owntracks(b.id, owntracksAt(owntracksAndroidLocation, now - 20_000));
    expect(android.status).toBe(200);
    expect(await android.json()).toEqual([]);
    let t = await telemetryOf(b.vehicleId);
    expect(t).toMatchObject({
      latitude: owntracksAndroidLocation.lat,
      longitude: owntracksAndroidLocation.lon,
      heading: 92,
    });
    expect(t!.speed).toBeCloseTo(43 / 3.6, 3); // km/h to m/s
    expect(t!.recordedAt).toBe(Math.floor((now - 20_000) / 1000) * 1000);

    const ios = await owntracks(b.id, owntracksAt(owntracksIosLocation, now - 10_000));
    expect(ios.status).toBe(200);
    t = await telemetryOf(b.vehicleId);
    expect(t).toMatchObject({ latitude: owntracksIosLocation.lat, longitude: owntracksIosLocation.lon, speed: 0 });
  });

  it("accepts and ignores its other messages from a known device", async () => {
    const b = await beacon();
    for (const message of owntracksOtherMessages) {
      const res = await owntracks(b.id, message);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    }
    expect(await telemetryOf(b.vehicleId)).toBeUndefined();
  });

  it("refuses an unknown device id with 400, for positions and other messages alike", async () => {
    for (const body of [owntracksAt(owntracksAndroidLocation, Date.now()), owntracksOtherMessages[2]]) {
      const res = await owntracks(`unknown-${crypto.randomUUID()}`, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toBe("Unknown device id");
    }
  });

  it("refuses malformed bodies with 400 and the reason", async () => {
    const b = await beacon();
    const cases: [string | null, unknown, string][] = [
      [null, owntracksAt(owntracksAndroidLocation, Date.now()), "X-Limit-D"],
      [b.id, { ...owntracksAndroidLocation, lat: "north" }, "lat must be a number"],
      [b.id, { _type: "location", lon: 1, tst: 1 }, "lat is required"],
      [b.id, { lat: 1, lon: 2 }, "_type"],
      [b.id, { ...owntracksAndroidLocation, lat: 123 }, "Unreadable position"],
    ];
    for (const [deviceId, body, reason] of cases) {
      const res = await owntracks(deviceId, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toContain(reason);
    }
    const broken = await call("/api/ingest/owntracks", {
      method: "POST",
      headers: { "X-Limit-D": b.id, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as ErrorBody).error.message).toBe("Malformed JSON body");
  });
});

describe("Overland", () => {
  it("stores a batch, answering { result: ok }; its -1 readings are unknown", async () => {
    const b = await beacon();
    const now = Date.now();
    const res = await overland(overlandAt(b.id, [now - 20_000, now - 10_000]));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "ok" });
    const t = await telemetryOf(b.vehicleId);
    const [, last] = overlandBatch.locations;
    expect(t).toMatchObject({
      latitude: last!.geometry.coordinates[1],
      longitude: last!.geometry.coordinates[0],
      recordedAt: now - 10_000,
    });
  });

  it("takes the device id from the query when the app leaves properties.device_id empty", async () => {
    const b = await beacon();
    const now = Date.now();
    const batch = overlandAt("", [now - 5_000, now - 4_000]);
    expect((await overland(batch, `?device_id=${b.id}`)).status).toBe(200);
    expect(await telemetryOf(b.vehicleId)).toBeDefined();
  });

  it("refuses an unknown device id with 400", async () => {
    const res = await overland(overlandAt(`unknown-${crypto.randomUUID()}`, [Date.now()]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.message).toBe("Unknown device id");
  });

  it("refuses malformed batches with 400 and the reason", async () => {
    const b = await beacon();
    const line = overlandAt(b.id, [Date.now()]);
    const cases: [unknown, string][] = [
      [{ location: [] }, "locations"],
      [overlandBatch, "Missing device id"],
      [
        {
          locations: [
            {
              ...line.locations[0],
              geometry: {
                type: "LineString",
                coordinates: [
                  [0, 0],
                  [1, 1],
                ],
              },
            },
          ],
        },
        "Point",
      ],
      [{ locations: [{ ...line.locations[0], properties: { device_id: b.id } }] }, "timestamp is required"],
      [
        { locations: [{ ...line.locations[0], geometry: { type: "Point", coordinates: [200, 95] } }] },
        "longitude, latitude",
      ],
      [
        {
          locations: [
            line.locations[0],
            { ...line.locations[1], properties: { ...line.locations[1]!.properties, device_id: "other" } },
          ],
        },
        "one device id",
      ],
    ];
    for (const [body, reason] of cases) {
      const res = await overland(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.message).toContain(reason);
    }
  });
});

describe("one ingestion path", () => {
  it("the same positions through OsmAnd, OwnTracks and Overland give the same vehicle state", async () => {
    const [viaOsmand, viaOwntracks, viaOverland] = [await beacon(), await beacon(), await beacon()];
    const time = Math.floor((Date.now() - 30_000) / 1000) * 1000;
    const fix = { lat: 41.8819, lon: -87.6278, speedMs: 10, alt: 180 };
    const q = new URLSearchParams({
      id: viaOsmand.id,
      lat: String(fix.lat),
      lon: String(fix.lon),
      timestamp: String(time / 1000),
      speed: String(fix.speedMs / 0.514444),
      altitude: "180",
    });
    expect((await call(`/api/ingest/osmand?${q}`, { headers: fromIp() })).status).toBe(200);
    const ot = {
      _type: "location",
      lat: fix.lat,
      lon: fix.lon,
      tst: time / 1000,
      vel: fix.speedMs * 3.6,
      alt: fix.alt,
    };
    expect((await owntracks(viaOwntracks.id, ot)).status).toBe(200);
    const ol = {
      locations: [
        {
          type: "Feature",
          geometry: { type: "Point", coordinates: [fix.lon, fix.lat] },
          properties: {
            timestamp: new Date(time).toISOString(),
            speed: fix.speedMs,
            altitude: fix.alt,
            device_id: viaOverland.id,
          },
        },
      ],
    };
    expect((await overland(ol)).status).toBe(200);
    const states = await Promise.all([viaOsmand, viaOwntracks, viaOverland].map((b) => telemetryOf(b.vehicleId)));
    for (const s of states) {
      expect(s).toMatchObject({ latitude: fix.lat, longitude: fix.lon, recordedAt: time, status: states[0]!.status });
      expect(s!.speed).toBeCloseTo(fix.speedMs, 3);
    }
  });

  it("a report dated far ahead is acknowledged and not used, as OsmAnd's is", async () => {
    const b = await beacon();
    const ahead = owntracksAt(owntracksAndroidLocation, Date.now() + 365 * 86_400_000);
    expect((await owntracks(b.id, ahead)).status).toBe(200);
    expect(await telemetryOf(b.vehicleId)).toBeUndefined();
  });
});
