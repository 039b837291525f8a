import { describe, expect, it } from "vitest";
import { call } from "../test/factories";
import { MAX_DEVICE_ID_LENGTH, parseOsmandJson, parseOsmandParams, ReportError } from "../../domain/devices/osmand";

/**
 * Issue 23: a tracker's claims are bounded. Readings no vehicle can produce are dropped from the
 * report (its position is kept), and an overlong device id is refused before anything keeps it.
 */
const NOW = Date.parse("2026-11-23T12:00:00Z");
const base = { id: "dev-1", lat: "40", lon: "-100", timestamp: String(NOW) };

describe("impossible readings", () => {
  it.each([
    [{ speed: "-500" }, "speed"],
    [{ speed: "200" }, "speed"], // knots: 370 km/h
    [{ bearing: "1e300" }, "heading"],
    [{ bearing: "-1" }, "heading"],
    [{ bearing: "361" }, "heading"],
    [{ altitude: "-1e300" }, "altitude"],
    [{ altitude: "20001" }, "altitude"],
    [{ odometer: "-5" }, "odometer"],
    [{ accuracy: "-3" }, "accuracy"],
  ] as const)("%o drops %s and keeps the position", (extra, field) => {
    const report = parseOsmandParams({ ...base, ...extra }, NOW);
    expect(report[field]).toBeNull();
    expect(report).toMatchObject({ latitude: 40, longitude: -100, time: NOW });
  });

  it("keeps the readings a vehicle can produce, at their bounds", () => {
    const report = parseOsmandParams({ ...base, speed: "188", bearing: "360", altitude: "-20000", odometer: "0" }, NOW);
    expect(report.speed).toBeCloseTo(96.7, 1); // 188 knots = 348 km/h
    expect(report).toMatchObject({ heading: 360, altitude: -20000, odometer: 0 });
    expect(parseOsmandParams({ ...base, bearing: "0", altitude: "8848" }, NOW)).toMatchObject({
      heading: 0,
      altitude: 8848,
    });
  });

  it("bounds the JSON variant the same way (m/s there)", () => {
    const [report] = parseOsmandJson(
      {
        device_id: "dev-1",
        location: {
          timestamp: NOW,
          coords: { latitude: 1, longitude: 2, speed: 98, heading: 400, altitude: 1e9 },
          odometer: -1,
        },
      },
      NOW,
    );
    expect(report).toMatchObject({ speed: null, heading: null, altitude: null, odometer: null, latitude: 1 });
  });
});

describe("device ids", () => {
  const long = "x".repeat(MAX_DEVICE_ID_LENGTH + 1);

  it("refuses an id over the bound in both variants", () => {
    expect(() => parseOsmandParams({ ...base, id: long }, NOW)).toThrow(ReportError);
    expect(() =>
      parseOsmandJson({ device_id: long, location: { coords: { latitude: 1, longitude: 2 } } }, NOW),
    ).toThrow(ReportError);
    expect(parseOsmandParams({ ...base, id: "x".repeat(MAX_DEVICE_ID_LENGTH) }, NOW).deviceId).toHaveLength(
      MAX_DEVICE_ID_LENGTH,
    );
  });

  it("answers 400 JSON at the endpoint, before the id is looked up or throttled", async () => {
    const res = await call(`/api/ingest/osmand?id=${"y".repeat(10_000)}&lat=1&lon=2`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toContain(`at most ${MAX_DEVICE_ID_LENGTH} characters`);
  });
});
