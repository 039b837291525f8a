import { LIMITS } from "../auth/rate-limit";
import { and, count, eq, or } from "drizzle-orm";
import { Hono } from "hono";
import { beaconOrderSchema, type Beacon } from "../../shared/fleet/beacon";
import {
  beaconHealthQuerySchema,
  beaconHealthSchema,
  beaconParamsSchema,
  deviceIdRotationSchema,
  replaceDeviceIdsBodySchema,
  replacedDeviceIdsSchema,
} from "../../shared/fleet/beacon-health";
import { can } from "../../shared/account/roles";
import { deviceSetup } from "../../shared/fleet/device-setup";
import { replaceDeviceIds } from "../fleet/replace-device-ids";
import { requireSession, workspaceSession } from "../auth/session";
import { beacons, vehicles } from "../../db/schema";
import { beaconHealth, rotateDeviceId } from "../fleet/beacon-health";
import { audit } from "../lib/audit";
import { insertChunks } from "../../db/chunk";
import { randomToken } from "../lib/crypto";
import { forbidden, notFound } from "../lib/errors";
import { listDevices } from "../fleet/device-directory";
import { announceWrites, commitWorkspaceWrite, vehiclePositionCount } from "../workspace-object";
import type { AppEnv } from "../types";
import { deviceSetupSchema } from "../../shared/fleet/device-setup";
import { declared, perUser } from "./route-declaration/declare";

/**
 * Ordering beacons: each new beacon comes with a new vehicle it tracks, named "Vehicle N" after
 * the fleet's size, ready to be renamed in its settings. One batch, one version, one poke.
 */
export const beaconRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/order",
    declared({
      permission: "fleet.edit",
      summary: "Order beacons, each with a new vehicle",
      tag: "Fleet",
      body: beaconOrderSchema,
      status: 201,
      limits: [
        perUser(LIMITS.beaconOrders, {
          event: "sync.bound_exceeded",
          fields: (c) => ({ userId: c.var.session.userId, bound: "beacon_orders_per_day" }),
        }),
      ],
    }),
    async (c) => {
      const { workspaceId, count: wanted } = c.req.valid("json");
      if (workspaceId !== c.var.session.workspaceId)
        throw forbidden("You can only order beacons for your current workspace");
      const db = c.var.db;
      const existing = await db
        .select({ n: count() })
        .from(vehicles)
        .where(eq(vehicles.workspaceId, workspaceId))
        .get();
      const ingestUrl = ingestUrlOf(c.var.config.APP_URL);
      const ordered: Beacon[] = Array.from({ length: wanted }, (_, i) => ({
        // 24 random bytes: unguessable, URL-safe, what the device sends as `id`.
        id: randomToken(24),
        vehicleId: crypto.randomUUID(),
        vehicleName: `Vehicle ${(existing?.n ?? 0) + i + 1}`,
        ingestUrl,
      }));
      await commitWorkspaceWrite(
        { env: c.env, db, waitUntil: (w) => c.executionCtx.waitUntil(w) },
        workspaceId,
        (stamp, live) => [
          ...insertChunks(vehicles, ordered).map((part) =>
            live
              .insert(vehicles)
              .values(part.map((b) => ({ id: b.vehicleId, workspaceId, name: b.vehicleName, version: stamp }))),
          ),
          ...insertChunks(beacons, ordered).map((part) =>
            db.insert(beacons).values(part.map((b) => ({ id: b.id, workspaceId, vehicleId: b.vehicleId }))),
          ),
        ],
      );
      // The edge finds their workspace without D1 from their first report on (docs/decisions/0027).
      await listDevices(c.env.DEVICE_DIRECTORY, ordered, workspaceId);
      return c.json(ordered, 201);
    },
  )
  /** The workspace's beacons, for configuring devices and for the simulator. */
  .get("/", declared({ permission: "workspace.view", summary: "The workspace's beacons", tag: "Fleet" }), async (c) => {
    const { workspaceId, role } = workspaceSession(c.var.session);
    const rows = await c.var.db
      .select({ id: beacons.id, vehicleId: beacons.vehicleId, lastReportAt: beacons.lastReportAt })
      .from(beacons)
      .where(eq(beacons.workspaceId, workspaceId))
      .all();
    // a device id is the only credential of ingestion: only roles that edit the fleet see it (issue 34)
    return c.json(can(role, "fleet.edit") ? rows : rows.map((r) => ({ ...r, id: null })));
  })
  /** A vehicle's beacon health (shared/fleet/beacon-health.ts). Another workspace's vehicle is a 404, like a missing one. */
  .get(
    "/:vehicleId/health",
    declared({
      permission: "workspace.view",
      summary: "A vehicle's beacon health",
      tag: "Fleet",
      params: beaconParamsSchema,
      query: beaconHealthQuerySchema,
      response: beaconHealthSchema,
    }),
    async (c) => {
      const { workspaceId, role } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("param");
      const now = Date.now();
      const since = c.req.valid("query").since ?? now - (now % 86_400_000);
      const countStored = (id: string, from: number) => vehiclePositionCount(c.env, workspaceId, id, from, now);
      const health = await beaconHealth(
        c.var.db,
        workspaceId,
        vehicleId,
        since,
        ingestUrlOf(c.var.config.APP_URL),
        countStored,
      );
      if (!health) throw notFound("No beacon for this vehicle in this workspace");
      return c.json(can(role, "fleet.edit") ? health : { ...health, deviceId: null });
    },
  )
  /**
   * Setting a phone up as this beacon's tracker in one scan (shared/fleet/device-setup.ts): what each app
   * reads from a QR code. Roles that edit the fleet only (route rules: 403 otherwise), since it
   * carries the device id; the beacon is named by its vehicle's id (or its own id), and one of
   * another workspace is a 404.
   */
  .get(
    "/:vehicleId/setup",
    declared({
      permission: "fleet.edit",
      summary:
        "Set a phone up as this beacon's tracker: QR contents for Traccar Client and OwnTracks, Overland's URL and id",
      tag: "Fleet",
      params: beaconParamsSchema,
      response: deviceSetupSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("param");
      const beacon = await c.var.db
        .select({ id: beacons.id })
        .from(beacons)
        .where(
          and(eq(beacons.workspaceId, workspaceId), or(eq(beacons.vehicleId, vehicleId), eq(beacons.id, vehicleId))),
        )
        .get();
      if (!beacon) throw notFound("No beacon for this vehicle in this workspace");
      return c.json(deviceSetup(c.var.config.APP_URL, beacon.id));
    },
  )
  /**
   * Owners: every beacon of the workspace gets a new device id at once (after someone who could
   * read them left). The answer lists each beacon's new id: each tracker must be given its own.
   */
  .post(
    "/device-ids/replace",
    declared({
      permission: "devices.replace",
      summary: "Replace every beacon's device id at once (after a leak); answered once, not cached",
      tag: "Fleet",
      body: replaceDeviceIdsBodySchema,
      response: replacedDeviceIdsSchema,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const replaced = await replaceDeviceIds(c.var.db, workspaceId, ingestUrlOf(c.var.config.APP_URL));
      // The workspace's object owns its devices: each old id must stop working there at once.
      const vehicleIds = replaced.beacons.map((b) => b.vehicleId);
      await announceWrites({ env: c.env }, [workspaceId], { change: { devices: { vehicleIds }, poke: false } });
      audit("beacon.device_ids_replaced", { workspaceId, userId, count: replaced.beacons.length });
      return c.json(replaced, 200, { "Cache-Control": "no-store" });
    },
  )
  /** Regenerates the beacon's device id: the old one answers 400 from now on; the new one is returned once more here. */
  .post(
    "/:vehicleId/device-id",
    declared({
      permission: "fleet.edit",
      summary: "Regenerate a beacon's device id",
      tag: "Fleet",
      params: beaconParamsSchema,
      response: deviceIdRotationSchema,
    }),
    async (c) => {
      const { workspaceId, userId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("param");
      const rotation = await rotateDeviceId(c.var.db, workspaceId, vehicleId, ingestUrlOf(c.var.config.APP_URL));
      if (!rotation) throw notFound("No beacon for this vehicle in this workspace");
      // The workspace's object owns its devices: the old id must stop working there at once.
      await announceWrites({ env: c.env }, [workspaceId], {
        change: { devices: { vehicleIds: [vehicleId] }, poke: false },
      });
      audit("beacon.device_id_rotated", { workspaceId, vehicleId, userId });
      return c.json(rotation);
    },
  );

const ingestUrlOf = (appUrl: string) => new URL("/api/ingest/osmand", appUrl).href;
