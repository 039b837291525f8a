import { describe, expect, it } from "vitest";
// The server's own parser: the simulator must speak exactly the protocol the Worker reads.
import { parseOsmandJson, parseOsmandParams } from "../../domain/devices/osmand";
import { metresPerSecondToKnots } from "../../shared/units/units";
import { osmandRequest, sendReport } from "./osmand-client";
import type { SimReport } from "./vehicle";

const report: SimReport = {
  deviceId: "dev-0123456789abcdef",
  time: Date.parse("2026-11-02T08:00:05Z"),
  latitude: 41.882,
  longitude: -87.6278,
  speed: 12.5,
  heading: 359,
  altitude: 20,
  accuracy: 5,
  battery: 87,
  ignition: true,
  fuel: 63.4,
  odometer: 120_500_000,
};

async function readBack(form: "query" | "form" | "json") {
  const { url, init } = osmandRequest("http://localhost:8787", report, form);
  expect(new URL(url).pathname).toBe("/api/ingest/osmand");
  if (form === "query") {
    expect(init.method).toBe("GET");
    return parseOsmandParams(Object.fromEntries(new URL(url).searchParams));
  }
  expect(init.method).toBe("POST");
  if (form === "form") {
    expect(init.headers["Content-Type"]).toBe("application/x-www-form-urlencoded");
    return parseOsmandParams(Object.fromEntries(new URLSearchParams(String(init.body))));
  }
  expect(init.headers["Content-Type"]).toBe("application/json");
  return parseOsmandJson(JSON.parse(String(init.body)))[0]!;
}

describe("OsmAnd client", () => {
  it.each(["query", "form", "json"] as const)("sends a %s report the server reads back unchanged", async (form) => {
    const parsed = await readBack(form);
    expect(parsed).toMatchObject({
      deviceId: report.deviceId,
      time: report.time,
      latitude: report.latitude,
      longitude: report.longitude,
      heading: report.heading,
      ignition: true,
      fuel: report.fuel,
      odometer: report.odometer,
      battery: report.battery,
    });
    expect(parsed.speed!).toBeCloseTo(report.speed, 2);
  });

  it("uses the protocol's units: knots and Unix seconds in OsmAnd, m/s and ISO 8601 in JSON", () => {
    const query = new URL(osmandRequest("http://x", report, "query").url).searchParams;
    expect(Number(query.get("speed"))).toBeCloseTo(metresPerSecondToKnots(12.5), 2);
    expect(query.get("timestamp")).toBe(String(report.time / 1000));
    const json = JSON.parse(String(osmandRequest("http://x", report, "json").init.body));
    expect(json.location.coords.speed).toBe(12.5);
    expect(json.location.timestamp).toBe("2026-11-02T08:00:05.000Z");
  });

  it("surfaces the server's error message and network failures without throwing", async () => {
    const refusing = (async () =>
      new Response(JSON.stringify({ error: { code: "bad_request", message: "Unknown device id" } }), {
        status: 400,
      })) as typeof fetch;
    expect(await sendReport("http://x", report, "query", refusing)).toEqual({
      ok: false,
      status: 400,
      error: "Unknown device id",
    });
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    expect(await sendReport("http://x", report, "json", down)).toEqual({ ok: false, status: 0, error: "fetch failed" });
  });
});
