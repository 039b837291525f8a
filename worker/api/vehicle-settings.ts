import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { vehiclePatchSchema } from "../../shared/sync/mutators";
import { requireSession, workspaceSession } from "../auth/session";
import { vehicles } from "../../db/schema";
import { notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite } from "../workspace-object";

/** A vehicle's settings as `PATCH /api/vehicles/{id}` answers them. */
export interface VehicleSettings {
  id: string;
  name: string;
  vin: string | null;
  year: number | null;
  make: string | null;
  model: string | null;
  fuelTankLitres: number | null;
}

const vehicleSettings: z.ZodType<VehicleSettings> = z.object({
  id: z.string(),
  name: z.string(),
  vin: z.string().nullable(),
  year: z.number().int().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  fuelTankLitres: z.number().nullable(),
});

/**
 * `PATCH /api/vehicles/{id}`: a vehicle's settings for integrators, with the rules of the Settings
 * tab's synced `updateVehicle` (shared/sync/mutators.ts): members and up (its declared permission), fields left
 * out stay, null clears one. Another workspace's vehicle is a 404.
 */
export const vehicleSettingsRoutes = new Hono<AppEnv>().use(requireSession).patch(
  "/:vehicleId",
  declared({
    permission: "fleet.edit",
    summary: "Change a vehicle's settings (name, VIN, year, make, model, fuel tank in litres); null clears one",
    tag: "Fleet",
    body: vehiclePatchSchema,
    response: vehicleSettings,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const db = c.var.db;
    const scope = and(
      eq(vehicles.id, c.req.param("vehicleId")),
      eq(vehicles.workspaceId, workspaceId),
      eq(vehicles.deleted, false),
    );
    const exists = await db.select({ id: vehicles.id }).from(vehicles).where(scope).get();
    if (!exists) throw notFound("No such vehicle in this workspace");
    const patch = c.req.valid("json");
    const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
    // A new tank reaches the workspace's object before this answers: fuel_drop rules measure litres with it.
    const change = "fuelTankLitres" in patch ? { change: { tanks: true } } : {};
    await commitWorkspaceWrite(
      { env: c.env, db, waitUntil },
      workspaceId,
      (stamp) => [
        db
          .update(vehicles)
          .set({ ...patch, version: stamp })
          .where(scope),
      ],
      change,
    );
    const row = (await db.select().from(vehicles).where(scope).get())!;
    const { id, name, vin, year, make, model, fuelTankLitres } = row;
    return c.json({ id, name, vin, year, make, model, fuelTankLitres } satisfies VehicleSettings);
  },
);
