import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { vehiclePatchSchema } from "../../shared/sync/mutators";
import { vehicleTable } from "../../shared/fleet/vehicle-fields";
import { requireSession, workspaceSession } from "../auth/session";
import { vehicles } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { shiftInOrder, vehiclePlanFieldsSchema } from "../../shared/jobs/route-plan";
import { jobPlacePoint } from "../jobs/job-places";
import type { AppEnv } from "../types";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite } from "../workspace-object";

/**
 * A vehicle's settings as `PATCH /api/vehicles/{id}` answers them: the id, the table's fields
 * (shared/fleet/vehicle-fields.ts), the tank, and what the day's planner reads (docs/decisions/0076).
 */
const vehicleSettings = z.object({
  id: z.string(),
  ...vehicleTable.answers,
  fuelTankLitres: z.number().nullable(),
  capacity: z.number().nullable(),
  shiftStart: z.string().nullable(),
  shiftEnd: z.string().nullable(),
  homePlaceId: z.string().nullable(),
});
export type VehicleSettings = z.infer<typeof vehicleSettings>;

/** The workspace's live vehicle `vehicleId` (another workspace's, or a deleted one, is none). */
const vehicleScope = (workspaceId: string, vehicleId: string) =>
  and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false));

function settingsOf(row: typeof vehicles.$inferSelect): VehicleSettings {
  const { id, fuelTankLitres, capacity, shiftStart, shiftEnd, homePlaceId } = row;
  return { id, ...vehicleTable.valuesOf(row), fuelTankLitres, capacity, shiftStart, shiftEnd, homePlaceId };
}

/**
 * `PATCH /api/vehicles/{id}`: a vehicle's settings for integrators, with the rules of the Settings
 * tab's synced `updateVehicle` (shared/sync/mutators.ts): members and up (its declared permission), fields left
 * out stay, null clears one. Another workspace's vehicle or home place is a 404. The planner's
 * fields (capacity, shift, home place: docs/decisions/0076) are REST-only for now, not synced, so
 * `GET` answers them for the Settings tab (docs/decisions/0088), in the shape `PATCH` answers.
 */
export const vehicleSettingsRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/:vehicleId",
    declared({
      permission: "workspace.view",
      summary: "A vehicle's settings, with what the day's planner reads of it (capacity, shift and home place)",
      tag: "Fleet",
      response: vehicleSettings,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const row = await c.var.db
        .select()
        .from(vehicles)
        .where(vehicleScope(workspaceId, c.req.param("vehicleId")))
        .get();
      if (!row) throw notFound("No such vehicle in this workspace");
      return c.json(settingsOf(row));
    },
  )
  .patch(
    "/:vehicleId",
    declared({
      permission: "fleet.edit",
      summary:
        "Change a vehicle's settings (name, VIN, year, make, model, fuel tank in litres; for the day's planner its capacity, shift and home place); null clears one",
      tag: "Fleet",
      body: vehiclePatchSchema.merge(vehiclePlanFieldsSchema),
      response: vehicleSettings,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const db = c.var.db;
      const scope = vehicleScope(workspaceId, c.req.param("vehicleId"));
      const exists = await db.select().from(vehicles).where(scope).get();
      if (!exists) throw notFound("No such vehicle in this workspace");
      const patch = c.req.valid("json");
      if (patch.homePlaceId) await jobPlacePoint(db, workspaceId, patch.homePlaceId);
      const merged = { shiftStart: exists.shiftStart, shiftEnd: exists.shiftEnd, ...patch };
      if (!shiftInOrder(merged.shiftStart ?? null, merged.shiftEnd ?? null))
        throw badRequest("shiftEnd: ends after the shift starts", { shiftEnd: ["Ends after the shift starts"] });
      const waitUntil = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
      // A new tank reaches the workspace's object before this answers: fuel_drop rules measure litres with it.
      const change = "fuelTankLitres" in patch ? { change: { tanks: true } } : {};
      await commitWorkspaceWrite(
        { env: c.env, db, waitUntil },
        workspaceId,
        (stamp, live) => [
          live
            .update(vehicles)
            // the table's fields as the patch names them; the tank and the planner's as given
            .set({ ...patch, ...vehicleTable.named(patch), version: stamp })
            .where(scope),
        ],
        change,
      );
      return c.json(settingsOf((await db.select().from(vehicles).where(scope).get())!));
    },
  );
