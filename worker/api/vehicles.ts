import { and, desc, eq, gte } from "drizzle-orm";
import { Hono } from "hono";
import { HISTORY_MAX_POINTS, HISTORY_WINDOW_MS, historyQuerySchema, type HistoryResponse } from "../../shared/vehicle-history";
import { requireSession, workspaceSession } from "../auth/session";
import { positions, vehicles } from "../db/schema";
import { notFound } from "../lib/errors";
import { zod } from "../lib/validate";
import type { AppEnv } from "../types";

/**
 * Read-only vehicle data that is not synced: the recent speed and fuel history behind the
 * Overview charts. Scoped to the session's workspace; another workspace's vehicle is a 404, the
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
    const since = c.req.valid("query").since ?? Date.now() - HISTORY_WINDOW_MS;
    // Newest first so the cap keeps the most recent points; the index (vehicle_id, recorded_at) serves it.
    const rows = await db
      .select({ t: positions.recordedAt, speed: positions.speed, fuel: positions.fuel })
      .from(positions)
      .where(and(eq(positions.vehicleId, vehicleId), eq(positions.workspaceId, workspaceId), gte(positions.recordedAt, since)))
      .orderBy(desc(positions.recordedAt))
      .limit(HISTORY_MAX_POINTS)
      .all();
    const body: HistoryResponse = { vehicleId, points: rows.reverse() };
    return c.json(body);
  });
