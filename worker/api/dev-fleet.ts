import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { requireSession } from "../auth/session";
import type { Db } from "../../db/client";
import { drivers, vehicles } from "../../db/schema";
import { developmentOnly } from "../lib/development-only";
import { notFound } from "../lib/errors";
import { commitWorkspaceWrite } from "../workspace-object";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";

const profileSchema = z.object({
  vehicles: z
    .array(
      z.object({
        id: z.string().min(1).max(100),
        driver: z.string().trim().min(1).max(80).nullable(),
        /** e.g. PICKUP_TRUCK, SUV, BOX_TRUCK, CARGO_VAN, SEDAN */
        classification: z
          .string()
          .regex(/^[A-Z][A-Z_]{1,39}$/, "A classification is an upper-case value such as PICKUP_TRUCK")
          .nullable(),
      }),
    )
    .min(1)
    .max(100),
});

/**
 * Development and tests only: sets a vehicle's driver and classification, which no product
 * screen or mutation edits yet, so the demo fleet can be seeded with them (scripts/demo.ts).
 * Only vehicles of the session's workspace change; one version, one poke.
 */
export const devFleetRoutes = new Hono<AppEnv>().post(
  "/vehicles/profile",
  developmentOnly,
  requireSession,
  declared({
    permission: "development",
    summary: "Give the workspace's vehicles a profile (development only)",
    tag: "Development",
    body: profileSchema,
  }),
  async (c) => {
    const workspaceId = c.var.session.workspaceId;
    if (!workspaceId) throw notFound("Choose a workspace first");
    const db = c.var.db;
    const list = c.req.valid("json").vehicles;
    const mine = new Set(
      (await db.select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.workspaceId, workspaceId)).all()).map(
        (v) => v.id,
      ),
    );
    const updates = list.filter((v) => mine.has(v.id));
    if (updates.length) {
      // Drivers are people (docs/decisions/0018): each name becomes the workspace's driver of that name.
      const driverIds = await driversNamed(
        db,
        workspaceId,
        updates.flatMap((v) => (v.driver ? [v.driver] : [])),
      );
      await commitWorkspaceWrite(
        { env: c.env, db, waitUntil: (w) => c.executionCtx.waitUntil(w) },
        workspaceId,
        (stamp, live) => [
          ...[...driverIds.created].map(([name, id]) =>
            db.insert(drivers).values({ id, workspaceId, name, version: stamp }),
          ),
          ...updates.map((v) =>
            live
              .update(vehicles)
              .set({
                driver: v.driver,
                driverId: v.driver ? (driverIds.all.get(v.driver) ?? null) : null,
                classification: v.classification,
                version: stamp,
              })
              .where(and(eq(vehicles.id, v.id), eq(vehicles.workspaceId, workspaceId))),
          ),
        ],
      );
    }
    return c.json({ updated: updates.length });
  },
);

/** The workspace's drivers of these names, with ids made up for those that do not exist yet (`created`). */
async function driversNamed(db: Db, workspaceId: string, names: string[]) {
  const existing = await db
    .select({ id: drivers.id, name: drivers.name })
    .from(drivers)
    .where(and(eq(drivers.workspaceId, workspaceId), eq(drivers.deleted, false)))
    .all();
  const all = new Map(existing.map((d) => [d.name, d.id]));
  const created = new Map<string, string>();
  for (const name of new Set(names)) {
    if (all.has(name)) continue;
    const id = crypto.randomUUID();
    all.set(name, id);
    created.set(name, id);
  }
  return { all, created };
}
