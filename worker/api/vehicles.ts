import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import { Hono } from "hono";
import { downsampleTrack } from "../../shared/downsample";
import {
  HISTORY_MAX_POINTS,
  HISTORY_RANGE_MAX_POINTS,
  HISTORY_WINDOW_MS,
  historyQuerySchema,
  type HistoryResponse,
} from "../../shared/vehicle-history";
import { requireSession, workspaceSession } from "../auth/session";
import { positions, vehicles } from "../db/schema";
import { notFound } from "../lib/errors";
import { zod } from "../lib/validate";
import type { AppEnv } from "../types";
import { settleWorkspace } from "../workspace-object";

/** A day at one report a second: more rows than that in one range are not read. */
const RANGE_ROWS = 86_400;

/**
 * Read-only vehicle data that is not synced: the recent speed and fuel history behind the
 * Overview charts, and ranges of positions for the map's route and trip replay (ADR 0014). Scoped to the session's workspace; another workspace's vehicle is a 404, the
 * same answer as a vehicle that does not exist, so ids cannot be probed.
 */
export const vehicleRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get("/:vehicleId/history", zod("query", historyQuerySchema), async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const vehicleId = c.req.param("vehicleId");
    const db = c.var.db;
    const vehicle = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId)))
      .get();
    if (!vehicle) throw notFound("No such vehicle in this workspace");
    // Positions reach D1 in the workspace object's flush (about a second): current first.
    await settleWorkspace(c.env, workspaceId);
    const query = c.req.valid("query");
    const columns = { t: positions.recordedAt, speed: positions.speed, fuel: positions.fuel, lat: positions.latitude, lng: positions.longitude };
    if (query.from !== undefined) {
      // A range (route, trip replay): every position in it, oldest first, then downsampled for the
      // screen keeping stops. The range is at most a day (zod), the rows read at most RANGE_ROWS.
      const to = query.to ?? Date.now();
      const rows = await db
        .select(columns)
        .from(positions)
        .where(
          and(
            eq(positions.vehicleId, vehicleId),
            eq(positions.workspaceId, workspaceId),
            gte(positions.recordedAt, query.from),
            lte(positions.recordedAt, to),
          ),
        )
        .orderBy(asc(positions.recordedAt))
        .limit(RANGE_ROWS)
        .all();
      const body: HistoryResponse = { vehicleId, points: downsampleTrack(rows, HISTORY_RANGE_MAX_POINTS) };
      return c.json(body);
    }
    const since = query.since ?? Date.now() - HISTORY_WINDOW_MS;
    // Newest first so the cap keeps the most recent points; the index (vehicle_id, recorded_at) serves it.
    const rows = await db
      .select(columns)
      .from(positions)
      .where(and(eq(positions.vehicleId, vehicleId), eq(positions.workspaceId, workspaceId), gte(positions.recordedAt, since)))
      .orderBy(desc(positions.recordedAt))
      .limit(HISTORY_MAX_POINTS)
      .all();
    const body: HistoryResponse = { vehicleId, points: rows.reverse() };
    return c.json(body);
  });
