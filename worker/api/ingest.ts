import { Hono, type Context } from "hono";
import { z } from "zod";
import { clientIp } from "../auth/rate-limit";
import { forgetDevice, workspaceOfDevice } from "../fleet/device-directory";
import { ingestTogether, isOverloaded } from "../fleet/ingest-batcher";
import { addressKey, ingestThrottle, type Take } from "../fleet/ingest-throttle";
import {
  NoPositionReport,
  osmandJsonBodySchema,
  parseOsmandJson,
  parseOsmandParams,
  refuseLoneReportBeforeEpoch,
  ReportError,
  type Report,
} from "../../domain/devices/osmand";
import { requestDeviceId, requestSize, type IngestRequest } from "../../domain/fold/ingest-request";
import { ApiError, badRequest } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

/**
 * The OsmAnd query-string variant's parameters, read by hand (domain/devices/osmand.ts
 * parseOsmandParams); described here, validated there. Every value is a string on the wire.
 */
const osmandQuery = z.object({
  id: z.string().optional().describe("The device id (or `deviceid`)"),
  lat: z.string().optional(),
  lon: z.string().optional(),
  location: z.string().optional().describe("`lat,lon`, instead of lat and lon"),
  timestamp: z.string().optional().describe("Unix seconds or ms, or ISO 8601; now when missing"),
  speed: z.string().optional().describe("knots"),
  bearing: z.string().optional(),
  altitude: z.string().optional(),
  accuracy: z.string().optional(),
  batt: z.string().optional(),
  ignition: z.string().optional(),
  fuel: z.string().optional(),
  odometer: z.string().optional(),
});

/**
 * Beacon ingestion, OsmAnd protocol (what Traccar Client and many trackers speak): GET or POST
 * with query or form parameters, or the JSON variant. No session: the unguessable device id is
 * the credential, and the beacon's workspace scopes the write.
 *
 * The edge (docs/decisions/0016, part 4): parse, refuse floods per source address
 * (worker/fleet/ingest-throttle.ts) and ids seen unknown a moment ago, find the device's workspace
 * (worker/fleet/device-directory.ts), and hand the reports to that workspace's object, together
 * with the workspace's other concurrent requests (worker/fleet/ingest-batcher.ts). The object
 * throttles per device (429 with Retry-After), folds, stores durably and answers; reports whose
 * device clock is out of bounds are acknowledged but not used (domain/fold/device-clock.ts).
 */
export const ingestRoutes = new Hono<AppEnv>()
  .get(
    "/osmand",
    declared({
      permission: "public",
      summary: "A position, OsmAnd protocol (Traccar Client, GPSLogger…)",
      tag: "Ingestion",
      described: { query: osmandQuery },
    }),
    (c) => ingestOsmand(c),
  )
  .post(
    "/osmand",
    declared({
      permission: "public",
      summary: "Positions, OsmAnd protocol: query, form or JSON body",
      tag: "Ingestion",
      described: { query: osmandQuery, body: osmandJsonBodySchema, form: true },
    }),
    (c) => ingestOsmand(c),
  );

async function ingestOsmand(c: Context<AppEnv>) {
  refuseOversizedBody(c);
  const reports = await readReports(c);
  // A report with no coordinates goes the same way, to be counted on its beacon (issue 56).
  const request = reports instanceof NoPositionReport ? { deviceId: reports.deviceId, withoutPosition: 1 } : reports;
  const answer = await ingestReports(c, request);
  return c.json({ ok: true, outcomes: answer.outcomes });
}

/**
 * 413 before a body a tracker would never send is read (a body sent without Content-Length is
 * bounded as it streams, by worker/api/index.ts's body limits).
 */
export function refuseOversizedBody(c: Context<AppEnv>, maxBytes = MAX_BODY_BYTES) {
  const length = Number(c.req.header("Content-Length") ?? 0);
  if (length > maxBytes)
    throw new ApiError(413, "payload_too_large", `A report request carries at most ${maxBytes / 1024} KB`);
}

/**
 * The one ingestion path every device protocol's parser feeds (OsmAnd here; OwnTracks and Overland
 * in worker/api/ingest-apps.ts): throttles, device lookup, the workspace object's fold and outcomes.
 * 400 for an unknown device id, 429 when throttled; answers the object's outcomes per report.
 * Reports without a position take it too: the object counts them on the beacon's health.
 */
export async function ingestReports(c: Context<AppEnv>, request: IngestRequest) {
  const { config } = c.var;
  const throttle = ingestThrottle(config.RATE_LIMIT_SCALE);
  const now = Date.now();
  const deviceId = requestDeviceId(request);
  refuseIfOver(c, throttle.addresses.take(addressKey(clientIp(c)), requestSize(request), now), "from this address");
  if (throttle.unknown.has(deviceId, now)) throw badRequest(UNKNOWN_DEVICE);
  const workspaceId = await workspaceOfDevice(c.var.db, deviceId, now, c.env.DEVICE_DIRECTORY);
  const clock = { maxAheadMs: config.INGEST_MAX_AHEAD_S * 1000, maxBehindMs: config.INGEST_MAX_BEHIND_S * 1000 };
  const keepAlive = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const answer = workspaceId
    ? await ingestTogether(
        c.env,
        workspaceId,
        request,
        // With a token, the stops this opens are addressed by the workspace's object (docs/decisions/0059).
        { clock, scale: config.RATE_LIMIT_SCALE, flushMs: config.INGEST_FLUSH_MS, geocoderToken: config.MAPBOX_TOKEN },
        keepAlive,
      ).catch((error: unknown) => {
        // The object refused for load: the device keeps its reports and sends them again later.
        if (!isOverloaded(error)) throw error;
        c.header("Retry-After", String(OVERLOADED_RETRY_S));
        throw new ApiError(503, "overloaded", `The workspace is busy. Try again in ${OVERLOADED_RETRY_S} s.`);
      })
    : null;
  if (!answer || (!answer.ok && answer.unknown)) {
    throttle.unknown.add(deviceId, Date.now());
    keepAlive(
      forgetDevice(deviceId, c.env.DEVICE_DIRECTORY).catch((error: unknown) =>
        console.error("device directory: delete failed:", error),
      ),
    );
    throw badRequest(UNKNOWN_DEVICE);
  }
  if (!answer.ok) throw tooMany(c, answer.retryAfterS, "from this device");
  return answer;
}

/**
 * A message with no position (an OwnTracks status, an Overland ping) still names a device: an
 * unknown one is 400 like any report's, known ones are answered without touching the object.
 */
export async function checkDevice(c: Context<AppEnv>, deviceId: string) {
  const now = Date.now();
  const throttle = ingestThrottle(c.var.config.RATE_LIMIT_SCALE);
  refuseIfOver(c, throttle.addresses.take(addressKey(clientIp(c)), 1, now), "from this address");
  if (throttle.unknown.has(deviceId, now) || !(await workspaceOfDevice(c.var.db, deviceId, now))) {
    throttle.unknown.add(deviceId, Date.now());
    throw badRequest(UNKNOWN_DEVICE);
  }
}

/** 500 JSON locations take about 150 KB; anything much bigger is not a tracker (Overland has its own bound). */
export const MAX_BODY_BYTES = 256 * 1024;
const UNKNOWN_DEVICE = "Unknown device id";
const OVERLOADED_RETRY_S = 5;

function refuseIfOver(c: Context<AppEnv>, take: Take, where: string) {
  if (!take.ok) throw tooMany(c, take.retryAfterS, where);
}

function tooMany(c: Context<AppEnv>, retryAfterS: number, where: string) {
  c.header("Retry-After", String(retryAfterS));
  return new ApiError(429, "rate_limited", `Too many reports ${where}. Try again in ${retryAfterS} s.`);
}

async function readReports(c: Context<AppEnv>): Promise<Report[] | NoPositionReport> {
  try {
    const query = c.req.query();
    const reports = await reportsOf(c, query);
    // One report alone is refused for a device time before 2000; a JSON batch drops and counts it.
    if (!reports.batch) refuseLoneReportBeforeEpoch(reports.reports);
    return reports.reports;
  } catch (error) {
    if (error instanceof NoPositionReport) return error;
    if (error instanceof ReportError) throw badRequest(error.message);
    throw error;
  }
}

async function reportsOf(c: Context<AppEnv>, query: Record<string, string>) {
  const one = (report: Report) => ({ reports: [report], batch: false });
  if (c.req.method === "GET") return one(parseOsmandParams(query));
  const type = c.req.header("Content-Type") ?? "";
  if (type.includes("application/json")) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ReportError("Malformed JSON body");
    }
    const location = (body as { location?: unknown } | null)?.location;
    return { reports: parseOsmandJson(body), batch: Array.isArray(location) };
  }
  if (type.includes("form")) {
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")) as Record<
      string,
      string
    >;
    return one(parseOsmandParams({ ...query, ...fields }));
  }
  return one(parseOsmandParams(query));
}
