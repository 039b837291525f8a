import { describe, expect, it } from "vitest";
import {
  overlandBatch,
  owntracksAndroidLocation,
  owntracksOtherMessages,
  traccarClientFix,
} from "../../worker/fleet/fixtures/device-apps";
import { knotsToMetresPerSecond } from "../../shared/units/units";
import { ReportError, parseOsmandJson, parseOsmandParams } from "./osmand";
import { parseOverland } from "./overland";
import { parseOwntracks } from "./owntracks";

// The device decoders are pure (issue 40): what each app sends becomes the one Report the fold
// reads, or a ReportError naming what is wrong. Ingestion over HTTP is tested in workerd
// (worker/api/ingest-apps.worker.test.ts); these pin the decoding itself, field by field.
const NOW = Date.parse("2025-11-25T12:05:00Z");

describe("OsmAnd query parameters", () => {
  it("reads a fix: speed in knots, the position, battery, ignition and fuel", () => {
    const report = parseOsmandParams(
      {
        id: "van-7",
        lat: "41.88",
        lon: "-87.62",
        timestamp: "1764072000",
        speed: "10",
        batt: "120",
        ignition: "true",
        fuel: "55",
      },
      NOW,
    );
    expect(report).toMatchObject({
      app: "osmand",
      deviceId: "van-7",
      latitude: 41.88,
      longitude: -87.62,
      ignition: true,
    });
    expect(report.time).toBe(1764072000 * 1000);
    expect(report.speed).toBeCloseTo(knotsToMetresPerSecond(10));
    expect(report.battery).toBe(100); // clamped to a percent
    expect(report.fuel).toBe(55);
  });

  it("takes `location=lat,lon` and `deviceid` as the other spellings", () => {
    const report = parseOsmandParams({ deviceid: "van-8", location: "41.9,-87.7", timestamp: "1764072000" }, NOW);
    expect(report).toMatchObject({ deviceId: "van-8", latitude: 41.9, longitude: -87.7 });
  });

  it("refuses a fix without a device id, with an impossible position or an overlong id", () => {
    expect(() => parseOsmandParams({ lat: "41", lon: "-87" }, NOW)).toThrow(/device id/);
    expect(() => parseOsmandParams({ id: "x", lat: "91", lon: "-87" }, NOW)).toThrow(ReportError);
    expect(() => parseOsmandParams({ id: "x".repeat(129), lat: "41", lon: "-87" }, NOW)).toThrow(/128 characters/);
  });
});

describe("Traccar Client's JSON", () => {
  it("reads m/s, a 0..1 battery and the odometer as the app posts them", () => {
    const [report] = parseOsmandJson({ ...traccarClientFix, device_id: "phone-1" }, NOW);
    expect(report).toMatchObject({ app: "traccar_client", deviceId: "phone-1", latitude: 41.881832 });
    expect(report!.odometer).toBe(traccarClientFix.location.odometer);
    expect(report!.battery).toBeGreaterThan(1); // 0..1 became a percent
  });

  it("names the field of an unreadable body, and says what a position needs", () => {
    expect(() => parseOsmandJson({ device_id: "p", location: "here" }, NOW)).toThrow(/location/);
    expect(() => parseOsmandJson({ device_id: "p", location: { coords: {} } }, NOW)).toThrow(/Unreadable position/);
  });
});

describe("OwnTracks", () => {
  it("reads a location (km/h to m/s) and skips the other message types", () => {
    const { deviceId, reports } = parseOwntracks("phone-2", [owntracksAndroidLocation, ...owntracksOtherMessages]);
    expect(deviceId).toBe("phone-2");
    expect(reports).toHaveLength(1);
    expect(reports[0]!.speed).toBeCloseTo(owntracksAndroidLocation.vel / 3.6);
    expect(reports[0]!.battery).toBe(owntracksAndroidLocation.batt);
  });

  it("answers no reports for a message that is not a location, and refuses one without a device", () => {
    expect(parseOwntracks("phone-2", owntracksOtherMessages[2]).reports).toEqual([]);
    expect(() => parseOwntracks(undefined, owntracksAndroidLocation)).toThrow(ReportError);
  });
});

describe("Overland", () => {
  it("reads a batch: [longitude, latitude], unknown speed (-1) kept unknown, the token as the device", () => {
    const { deviceId, reports } = parseOverland(overlandBatch, "token-device", NOW);
    expect(deviceId).toBe("token-device");
    expect(reports.map((r) => [r.latitude, r.longitude])).toEqual([
      [41.881832, -87.623177],
      [41.88191, -87.62201],
    ]);
    expect(reports[0]!.battery).toBe(76);
    expect(reports[1]!.speed).toBeNull();
  });

  it("refuses one batch carrying two device ids", () => {
    const [a, b] = overlandBatch.locations;
    const mixed = {
      locations: [
        { ...a, properties: { ...a!.properties, device_id: "one" } },
        { ...b, properties: { ...b!.properties, device_id: "two" } },
      ],
    };
    expect(() => parseOverland(mixed, undefined, NOW)).toThrow(/one device id/);
  });
});
