import { Hono, type Context } from "hono";
import { parseOverland } from "../fleet/overland";
import { OWNTRACKS_DEVICE_HEADER, parseOwntracks } from "../fleet/owntracks";
import { ReportError, type Report } from "../fleet/osmand";
import { badRequest } from "../lib/errors";
import type { AppEnv } from "../types";
import { checkDevice, ingestReports, refuseOversizedBody } from "./ingest";

/**
 * Phone apps that post their own JSON (DESIGN.md "Sharing and integrations"): one parser per
 * protocol (worker/fleet/owntracks.ts, worker/fleet/overland.ts) in front of the one ingestion
 * path of /api/ingest/osmand, so device ids, throttles, clock handling, the fold and the answers
 * for unknown ids (400) and floods (429) are the same. Each answers what its app waits for.
 */
export const deviceAppRoutes = new Hono<AppEnv>()
  .post("/owntracks", async (c) => {
    refuseOversizedBody(c);
    const body = await jsonBody(c);
    const { deviceId, reports } = parsed(() =>
      parseOwntracks(c.req.header(OWNTRACKS_DEVICE_HEADER) ?? c.req.query("d"), body),
    );
    await ingestOrCheck(c, deviceId, reports);
    // OwnTracks shows the messages it is answered (friends' positions): none.
    return c.json([]);
  })
  .post("/overland", async (c) => {
    refuseOversizedBody(c);
    const body = await jsonBody(c);
    const { deviceId, reports } = parsed(() => parseOverland(body, c.req.query("device_id")));
    await ingestOrCheck(c, deviceId, reports);
    return c.json({ result: "ok" as const });
  });

async function ingestOrCheck(c: Context<AppEnv>, deviceId: string, reports: Report[]) {
  if (reports.length) await ingestReports(c, reports);
  else await checkDevice(c, deviceId);
}

async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest("Malformed JSON body");
  }
}

function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ReportError) throw badRequest(error.message);
    throw error;
  }
}
