import type { SimReport } from "./vehicle";
import { metresPerSecondToKnots } from "../../shared/units/units";

/**
 * Sending a position the way real trackers do, to /api/ingest/osmand (DESIGN.md): the OsmAnd
 * query string (Traccar Client's GET), the same fields as a form POST, or the JSON variant
 * (Traccar Client's newer JSON mode). Units differ by form exactly as the protocol says:
 * knots and Unix seconds in the OsmAnd forms, m/s and ISO 8601 in JSON.
 * Importable on its own (the benchmarks reuse it).
 */
export type OsmandForm = "query" | "form" | "json";
export const OSMAND_FORMS: readonly OsmandForm[] = ["query", "form", "json"];

export interface OsmandRequest {
  url: string;
  init: RequestInit & { method: "GET" | "POST"; headers: Record<string, string> };
}

/** The OsmAnd parameters of a report (speed in knots, timestamp in Unix seconds). */
export function osmandParams(r: SimReport): Record<string, string> {
  return {
    id: r.deviceId,
    lat: String(r.latitude),
    lon: String(r.longitude),
    timestamp: String(Math.round(r.time / 1000)),
    speed: metresPerSecondToKnots(r.speed).toFixed(2),
    bearing: String(r.heading),
    altitude: String(r.altitude),
    accuracy: String(r.accuracy),
    batt: String(r.battery),
    ignition: String(r.ignition),
    fuel: String(r.fuel),
    odometer: String(r.odometer),
  };
}

/** The JSON variant's body (speed in m/s, ISO timestamp, attributes under `extras`). */
export function osmandJson(r: SimReport) {
  return {
    device_id: r.deviceId,
    location: {
      timestamp: new Date(r.time).toISOString(),
      coords: {
        latitude: r.latitude,
        longitude: r.longitude,
        speed: r.speed,
        heading: r.heading,
        altitude: r.altitude,
        accuracy: r.accuracy,
      },
      odometer: r.odometer,
      battery: { level: r.battery / 100 },
      extras: { ignition: r.ignition, fuel: r.fuel },
    },
  };
}

/** The HTTP request a tracker using `form` would make for this report. */
export function osmandRequest(baseUrl: string, r: SimReport, form: OsmandForm): OsmandRequest {
  const endpoint = new URL("/api/ingest/osmand", baseUrl);
  switch (form) {
    case "query":
      endpoint.search = new URLSearchParams(osmandParams(r)).toString();
      return { url: endpoint.href, init: { method: "GET", headers: {} } };
    case "form":
      return {
        url: endpoint.href,
        init: {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(osmandParams(r)).toString(),
        },
      };
    case "json":
      return {
        url: endpoint.href,
        init: { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(osmandJson(r)) },
      };
  }
}

export interface SendResult {
  ok: boolean;
  status: number;
  /** the server's error message on a 4xx/5xx */
  error?: string;
}

/** Sends one report; network failures come back as status 0 instead of throwing. */
export async function sendReport(
  baseUrl: string,
  r: SimReport,
  form: OsmandForm,
  fetcher: typeof fetch = fetch,
): Promise<SendResult> {
  const { url, init } = osmandRequest(baseUrl, r, form);
  try {
    const res = await fetcher(url, init);
    if (res.ok) {
      await res.body?.cancel();
      return { ok: true, status: res.status };
    }
    const text = await res.text();
    let error = text;
    try {
      error = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      // not JSON: keep the text
    }
    return { ok: false, status: res.status, error };
  } catch (e) {
    return { ok: false, status: 0, error: e instanceof Error ? e.message : String(e) };
  }
}
