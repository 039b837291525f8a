import { Hono, type Context } from "hono";
import { OVERLAND_MAX_BODY_BYTES, parseOverland } from "../../domain/devices/overland";
import { OWNTRACKS_DEVICE_HEADER, parseOwntracks } from "../../domain/devices/owntracks";
import { refuseLoneReportBeforeEpoch, ReportError, type Report } from "../../domain/devices/osmand";
import { badRequest } from "../lib/errors";
import type { AppEnv } from "../types";
import { overlandAnswerSchema, overlandBodySchema } from "../../domain/devices/overland";
import { owntracksAnswerSchema, owntracksBodySchema } from "../../domain/devices/owntracks";
import { declared } from "./route-declaration/declare";
import { checkDevice, ingestReports, refuseOversizedBody } from "./ingest";

/**
 * Phone apps that post their own JSON (DESIGN.md "Sharing and integrations"): one parser per
 * protocol (domain/devices/owntracks.ts, domain/devices/overland.ts) in front of the one ingestion
 * path of /api/ingest/osmand, so device ids, throttles, clock handling, the fold and the answers
 * for unknown ids (400) and floods (429) are the same. Each answers what its app waits for, and
 * takes what the app really sends (docs/decisions/0043-device-apps-as-they-send.md).
 */
export const deviceAppRoutes = new Hono<AppEnv>()
  .post(
    "/owntracks",
    declared({
      permission: "public",
      summary: "Positions from OwnTracks in HTTP mode (device id in X-Limit-D)",
      tag: "Ingestion",
      described: { body: owntracksBodySchema },
      response: owntracksAnswerSchema,
    }),
    async (c) => {
      refuseOversizedBody(c);
      const text = await c.req.text();
      // The app posts an empty body when a friend is deleted in it; its documentation asks servers to ignore it.
      if (!text.trim()) return c.json([]);
      const body = jsonOf(text);
      const { deviceId, reports } = parsed(() => {
        const messages = parseOwntracks(c.req.header(OWNTRACKS_DEVICE_HEADER) ?? c.req.query("d"), body);
        if (!Array.isArray(body)) refuseLoneReportBeforeEpoch(messages.reports);
        return messages;
      });
      await ingestOrCheck(c, deviceId, reports);
      // OwnTracks shows the messages it is answered (friends' positions): none.
      return c.json([]);
    },
  )
  .post(
    "/overland",
    declared({
      permission: "public",
      summary: "Positions from Overland",
      tag: "Ingestion",
      described: { body: overlandBodySchema },
      response: overlandAnswerSchema,
    }),
    async (c) => {
      refuseOversizedBody(c, OVERLAND_MAX_BODY_BYTES);
      const body = jsonOf(await c.req.text());
      // Always a batch: a report dated before 2000 is dropped and counted (too_old), the rest kept,
      // and the app, answered ok, moves on instead of resending the batch forever.
      const fallbackId = c.req.query("device_id") || bearerToken(c.req.header("Authorization"));
      const { deviceId, reports } = parsed(() => parseOverland(body, fallbackId));
      await ingestOrCheck(c, deviceId, reports);
      return c.json({ result: "ok" as const });
    },
  );

/** Overland's Access Token setting arrives as `Authorization: Bearer <token>`: the device id when set to it. */
function bearerToken(header: string | undefined): string | undefined {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  return token || undefined;
}

async function ingestOrCheck(c: Context<AppEnv>, deviceId: string, reports: Report[]) {
  if (reports.length) await ingestReports(c, reports);
  else await checkDevice(c, deviceId);
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
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
