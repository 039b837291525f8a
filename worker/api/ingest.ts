import { Hono, type Context } from "hono";
import { addressStops } from "../fleet/geocode";
import { ingestTogether } from "../fleet/ingest-batcher";
import { parseOsmandJson, parseOsmandParams, ReportError, type Report } from "../fleet/osmand";
import { badRequest } from "../lib/errors";
import { pokeWorkspace } from "../realtime";
import type { AppEnv } from "../types";

/**
 * Beacon ingestion, OsmAnd protocol (what Traccar Client and many trackers speak): GET or POST
 * with query or form parameters, or the JSON variant. No session: the unguessable device id is
 * the credential, and the beacon's workspace scopes the write. Concurrent requests share their
 * D1 round trips (worker/fleet/ingest-batcher.ts); each still gets its own answer.
 */
export const ingestRoutes = new Hono<AppEnv>().on(["GET", "POST"], "/osmand", async (c) => {
  const reports = await readReports(c);
  const result = await ingestTogether(c.var.db, reports, (work) => c.executionCtx.waitUntil(work)).catch((error: unknown) => {
    if (error instanceof ReportError) throw badRequest(error.message);
    throw error;
  });
  if (result.workspaceId) c.executionCtx.waitUntil(pokeWorkspace(c.env, result.workspaceId));
  const token = c.var.config.MAPBOX_TOKEN;
  if (token && result.stops.length) {
    // After the write and the answer: the address arrives as a later change with its own poke.
    c.executionCtx.waitUntil(
      addressStops(c.var.db, token, result.stops)
        .then((workspaces) => Promise.all(workspaces.map((w) => pokeWorkspace(c.env, w))))
        .catch((error: unknown) => console.error("addressing stops failed:", error)),
    );
  }
  return c.json({ ok: true, outcomes: result.outcomes });
});

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
