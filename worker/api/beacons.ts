import { count, eq } from "drizzle-orm";
import { Hono } from "hono";
import { beaconOrderSchema, type Beacon } from "../../shared/beacon";
import { requireSession, workspaceSession } from "../auth/session";
import { beacons, vehicles } from "../db/schema";
import { chunkRows } from "../lib/chunk";
import { randomToken } from "../lib/crypto";
import { forbidden } from "../lib/errors";
import { body } from "../lib/validate";
import { pokeWorkspace } from "../realtime";
import { bumpVersion, versionOf } from "../sync/version";
import type { AppEnv } from "../types";

/**
 * Ordering beacons: each new beacon comes with a new vehicle it tracks, named "Vehicle N" after
 * the fleet's size, ready to be renamed in its settings. One batch, one version, one poke.
 */
export const beaconRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post("/order", body(beaconOrderSchema), async (c) => {
    const { workspaceId, count: wanted } = c.req.valid("json");
    if (workspaceId !== c.var.session.workspaceId) throw forbidden("You can only order beacons for your current workspace");
    const db = c.var.db;
    const existing = await db.select({ n: count() }).from(vehicles).where(eq(vehicles.workspaceId, workspaceId)).get();
    const ingestUrl = new URL("/api/ingest/osmand", c.var.config.APP_URL).href;
    const ordered: Beacon[] = Array.from({ length: wanted }, (_, i) => ({
      // 24 random bytes: unguessable, URL-safe, what the device sends as `id`.
      id: randomToken(24),
      vehicleId: crypto.randomUUID(),
      vehicleName: `Vehicle ${(existing?.n ?? 0) + i + 1}`,
      ingestUrl,
    }));
    await db.batch([
      bumpVersion(db, workspaceId),
      // Drizzle binds every column of a row (nulls too): 14 for a vehicle, 5 for a beacon.
      ...chunkRows(ordered, 14).map((part) =>
        db.insert(vehicles).values(
          part.map((b) => ({ id: b.vehicleId, workspaceId, name: b.vehicleName, version: versionOf(workspaceId) })),
        ),
      ),
      ...chunkRows(ordered, 5).map((part) =>
        db.insert(beacons).values(part.map((b) => ({ id: b.id, workspaceId, vehicleId: b.vehicleId }))),
      ),
    ]);
    c.executionCtx.waitUntil(pokeWorkspace(c.env, workspaceId));
    return c.json(ordered, 201);
  })
  /** The workspace's beacons, for configuring devices and for the simulator. */
  .get("/", async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const rows = await c.var.db
      .select({ id: beacons.id, vehicleId: beacons.vehicleId, lastReportAt: beacons.lastReportAt })
      .from(beacons)
      .where(eq(beacons.workspaceId, workspaceId))
      .all();
    return c.json(rows);
  });
