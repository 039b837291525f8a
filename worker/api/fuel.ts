import { Hono, type Context } from "hono";
import {
  fuelEconomyQuerySchema,
  fuelEntryBodySchema,
  fuelEntryPatchSchema,
  fuelEntryQuerySchema,
} from "../../shared/costs/fuel";
import { can } from "../../shared/account/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import type { AppEnv } from "../types";
import { z } from "zod";
import { fuelEntry, fuelEconomy } from "./fuel-answers";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite, settleWorkspace } from "../workspace-object";
import { fuelVehicle, fuelDeleteWrites, fuelEntryWrites, fuelUpdateWrites } from "../fuel/fuel-writes";
import { liveFuelEntries, withFlags } from "../fuel/fuel-log";
import { retryingFuelLogRaces } from "../fuel/fuel-stretches";
import { vehicleFuelEconomy } from "../fuel/economy";

/**
 * The fuel log for integrators (DESIGN.md "Fuel, costs and renewals"): members log fill-ups,
 * owners and admins edit and delete them, everyone reads. Every query is scoped to the caller's
 * workspace; another workspace's vehicle or entry is a 404 like one that does not exist.
 */
function sessionThat(session: SessionInfo, action: "fleet.edit" | "maintenance.manage") {
  const scoped = workspaceSession(session);
  if (!can(session.role, action))
    throw forbidden(action === "fleet.edit" ? "Viewers cannot log fuel" : "Only owners and admins change fuel entries");
  return scoped;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
const writeContext = (c: Context<AppEnv, any, any>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

export const fuelEntryRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Fill-ups, newest first (at most 1,000; `to` exclusive), each with its flags",
      tag: "Fuel and costs",
      query: fuelEntryQuerySchema,
      response: z.object({ entries: z.array(fuelEntry) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const query = c.req.valid("query");
      if (query.vehicleId) await fuelVehicle(c.var.db, workspaceId, query.vehicleId);
      // The flags read the fuel events and telemetry the workspace's object writes (no_rise_seen).
      await settleWorkspace(c.env, workspaceId);
      const rows = await liveFuelEntries(c.var.db, workspaceId, query);
      return c.json({ entries: await withFlags(c.var.db, workspaceId, rows) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Log a fill-up; the odometer defaults to the vehicle's GPS odometer at `at`",
      tag: "Fuel and costs",
      body: fuelEntryBodySchema,
      response: fuelEntry,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
      const id = crypto.randomUUID();
      const row = await retryingFuelLogRaces(async () => {
        const { row, writes } = await fuelEntryWrites(c.var.db, workspaceId, c.req.valid("json"), {
          id,
          userId,
          now: Date.now(),
        });
        await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
        return row;
      });
      const [entry] = await withFlags(c.var.db, workspaceId, [row]);
      return c.json(entry!, 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Correct a fill-up (owners and admins); null clears cost, odometer or vendor",
      tag: "Fuel and costs",
      body: fuelEntryPatchSchema,
      response: fuelEntry,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const row = await retryingFuelLogRaces(async () => {
        const { row, writes } = await fuelUpdateWrites(
          c.var.db,
          workspaceId,
          c.req.param("id"),
          c.req.valid("json"),
          Date.now(),
        );
        await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
        return row;
      });
      const [entry] = await withFlags(c.var.db, workspaceId, [row]);
      return c.json(entry!);
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a fill-up (owners and admins)",
      tag: "Fuel and costs",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      await retryingFuelLogRaces(async () => {
        const writes = await fuelDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
        await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      });
      return c.body(null, 204);
    },
  );

/** `GET /api/vehicles/{id}/fuel-economy?from=&to=`: full tank to full tank (shared/costs/fuel-economy.ts); everyone reads. */
export const fuelEconomyRoutes = new Hono<AppEnv>().use(requireSession).get(
  "/:vehicleId/fuel-economy",
  declared({
    permission: "workspace.view",
    summary: "Fuel economy, full tank to full tank (partial fills carried), of the stretches closed in the range",
    tag: "Fuel and costs",
    query: fuelEconomyQuerySchema,
    response: fuelEconomy,
  }),
  async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const vehicle = await fuelVehicle(c.var.db, workspaceId, c.req.param("vehicleId"));
    await settleWorkspace(c.env, workspaceId);
    return c.json(await vehicleFuelEconomy(c.var.db, workspaceId, vehicle, c.req.valid("query")));
  },
);
