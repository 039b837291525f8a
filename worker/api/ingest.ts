import { Hono, type Context } from "hono";
import { clientIp } from "../auth/rate-limit";
import { addressStops } from "../fleet/geocode";
import { ingestTogether } from "../fleet/ingest-batcher";
import { addressKey, ingestThrottle, type Take } from "../fleet/ingest-throttle";
import { parseOsmandJson, parseOsmandParams, ReportError, type Report } from "../fleet/osmand";
import { ApiError, badRequest } from "../lib/errors";
import { announceWrites } from "../workspace-object";
import type { AppEnv } from "../types";

/**
 * Beacon ingestion, OsmAnd protocol (what Traccar Client and many trackers speak): GET or POST
 * with query or form parameters, or the JSON variant. No session: the unguessable device id is
 * the credential, and the beacon's workspace scopes the write. Concurrent requests share their
 * D1 round trips (worker/fleet/ingest-batcher.ts); each still gets its own answer.
 *
 * Floods are refused before D1 (worker/fleet/ingest-throttle.ts): per source address, then an id
 * seen unknown a moment ago, then per device id; a 429 says when to retry. Reports whose device
 * clock is out of bounds are acknowledged but not used (party/fleet/device-clock.ts).
 */
export const ingestRoutes = new Hono<AppEnv>().on(["GET", "POST"], "/osmand", async (c) => {
  const length = Number(c.req.header("Content-Length") ?? 0);
  if (length > MAX_BODY_BYTES) throw new ApiError(413, "payload_too_large", `A report request carries at most ${MAX_BODY_BYTES / 1024} KB`);
  const reports = await readReports(c);
  const { config } = c.var;
  const throttle = ingestThrottle(config.RATE_LIMIT_SCALE);
  const now = Date.now();
  const deviceId = reports[0]!.deviceId;
  refuseIfOver(c, throttle.addresses.take(addressKey(clientIp(c)), reports.length, now), "from this address");
  if (throttle.unknown.has(deviceId, now)) throw badRequest(UNKNOWN_DEVICE);
  const device = throttle.devices.take(deviceId, reports.length, now);
  refuseIfOver(c, device, "from this device");
  const clock = { maxAheadMs: config.INGEST_MAX_AHEAD_S * 1000, maxBehindMs: config.INGEST_MAX_BEHIND_S * 1000 };
  const keepAlive = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const result = await ingestTogether(c.var.db, reports, { keepAlive, clock, throttled: device.ok ? device.refusedBefore : 0 }).catch((error: unknown) => {
    if (error instanceof ReportError) {
      throttle.unknown.add(deviceId, Date.now());
      throw badRequest(error.message);
    }
    throw error;
  });
  const w = { env: c.env, db: c.var.db, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
  if (result.workspaceId) await announceWrites(w, [result.workspaceId]);
  const token = c.var.config.MAPBOX_TOKEN;
  if (token && result.stops.length) {
    // After the write and the answer: the address arrives as a later change with its own poke.
    c.executionCtx.waitUntil(addressStops(w, token, result.stops).catch((error: unknown) => console.error("addressing stops failed:", error)));
  }
  return c.json({ ok: true, outcomes: result.outcomes });
});

/** 500 JSON locations take about 150 KB; anything much bigger is not a tracker. */
const MAX_BODY_BYTES = 512 * 1024;
const UNKNOWN_DEVICE = "Unknown device id";

function refuseIfOver(c: Context<AppEnv>, take: Take, where: string) {
  if (take.ok) return;
  c.header("Retry-After", String(take.retryAfterS));
  throw new ApiError(429, "rate_limited", `Too many reports ${where}. Try again in ${take.retryAfterS} s.`);
}

async function readReports(c: Context<AppEnv>): Promise<Report[]> {
  try {
    const query = c.req.query();
    if (c.req.method === "GET") return [parseOsmandParams(query)];
    const type = c.req.header("Content-Type") ?? "";
    if (type.includes("application/json")) {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new ReportError("Malformed JSON body");
      }
      return parseOsmandJson(body);
    }
    if (type.includes("form")) {
      const form = await c.req.parseBody();
      const fields = Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")) as Record<string, string>;
      return [parseOsmandParams({ ...query, ...fields })];
    }
    return [parseOsmandParams(query)];
  } catch (error) {
    if (error instanceof ReportError) throw badRequest(error.message);
    throw error;
  }
}
