import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import {
  HISTORY_MAX_POINTS,
  HISTORY_RANGE_MAX_POINTS,
  HISTORY_WINDOW_MS,
  historyQuerySchema,
  type HistoryResponse,
} from "../../shared/fleet/vehicle-history";
import { requireSession, workspaceSession } from "../auth/session";
import { vehicles } from "../../db/schema";
import { notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { historyResponseSchema } from "../../shared/fleet/vehicle-history";
import { declared } from "./route-declaration/declare";
import { vehicleHistory } from "../workspace-object";

/** A day at one report a second: more rows than that in one range are not read. */
const RANGE_ROWS = 86_400;

/**
 * Read-only vehicle data that is not synced: the recent speed and fuel history behind the
 * Overview charts, and ranges of positions for the map's route and trip replay (ADR 0014), read
 * from the workspace's object across its tiers (ADR 0023). Scoped to the session's workspace;
 * another workspace's vehicle is a 404, the same answer as a vehicle that does not exist, so ids
 * cannot be probed.
 */
export const vehicleRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/:vehicleId/history",
  declared({
    permission: "workspace.view",
    summary: "A vehicle's recent positions, or a range of them",
    tag: "Fleet",
    query: historyQuerySchema,
    response: historyResponseSchema,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const vehicleId = c.req.param("vehicleId");
    const db = c.var.db;
    const vehicle = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId)))
      .get();
    if (!vehicle) throw notFound("No such vehicle in this workspace");
    // Positions are stored by the workspace's object as it acknowledges them: nothing to flush first.
    const query = c.req.valid("query");
    if (query.from !== undefined) {
      // A range (route, trip replay): every position in it, oldest first, downsampled for the
      // screen keeping stops (by the object). The range is at most a day (zod), the rows used at most RANGE_ROWS.
      const shape = { maxRows: RANGE_ROWS, maxPoints: HISTORY_RANGE_MAX_POINTS };
      const body: HistoryResponse = {
        vehicleId,
        points: await vehicleHistory(c.env, workspaceId, vehicleId, query.from, query.to ?? Date.now(), shape),
      };
      return c.json(body);
    }
    // The most recent points since `since`: the object reads older days only as far as needed.
    const since = query.since ?? Date.now() - HISTORY_WINDOW_MS;
    const body: HistoryResponse = {
      vehicleId,
      points: await vehicleHistory(c.env, workspaceId, vehicleId, since, Date.now(), { newest: HISTORY_MAX_POINTS }),
    };
    return c.json(body);
  },
);
