import { Hono } from "hono";
import { z } from "zod";
import { renewalBodySchema, renewalQuerySchema, renewBodySchema } from "../../shared/costs/renewals";
import { can } from "../../shared/account/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import { declared } from "./route-declaration/declare";
import { renewal } from "./cost-answers";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";
import { fuelVehicle } from "../fuel/fuel-writes";
import { renewalDeleteWrites, renewalWrites, renewWrites } from "../costs/renewal-writes";
import { liveRenewals, toRenewal, workspaceToday } from "../costs/renewal-list";
import { writeContext } from "./expenses";

/**
 * Renewals for integrators (DESIGN.md "Fuel, costs and renewals"): owners and admins set one up
 * (as they do service schedules) and delete it; members renew it (as they log service);
 * everyone reads. Each answer carries its status as of today in the workspace's time zone.
 */
function sessionThat(session: SessionInfo, action: "fleet.edit" | "maintenance.manage") {
  const scoped = workspaceSession(session);
  if (!can(session.role, action))
    throw forbidden(action === "fleet.edit" ? "Viewers cannot renew" : "Only owners and admins set up renewals");
  return scoped;
}

export const renewalRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Renewals, soonest due first, each with its status today",
      tag: "Fuel and costs",
      query: renewalQuerySchema,
      response: z.object({ renewals: z.array(renewal) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("query");
      if (vehicleId) await fuelVehicle(c.var.db, workspaceId, vehicleId);
      const [today, rows] = await Promise.all([
        workspaceToday(c.var.db, workspaceId, Date.now()),
        liveRenewals(c.var.db, workspaceId, vehicleId),
      ]);
      return c.json({ renewals: rows.map((r) => toRenewal(r, today)) });
    },
  )
  .post(
    "/",
    declared({
      permission: "maintenance.manage",
      summary: "Set up a renewal (owners and admins); remindDaysBefore defaults to 30",
      tag: "Fuel and costs",
      body: renewalBodySchema,
      response: renewal,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = sessionThat(c.var.session, "maintenance.manage");
      const now = Date.now();
      const { row, writes } = await renewalWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        userId,
        now,
      });
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toRenewal(row, await workspaceToday(c.var.db, workspaceId, now)), 201);
    },
  )
  .post(
    "/:id/renew",
    declared({
      permission: "fleet.edit",
      summary: "Renew (members and up): the new due date, and a new document photo if given",
      tag: "Fuel and costs",
      body: renewBodySchema,
      response: renewal,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "fleet.edit");
      const now = Date.now();
      const { row, writes } = await renewWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"), now);
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toRenewal(row, await workspaceToday(c.var.db, workspaceId, now)));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a renewal (owners and admins)",
      tag: "Fuel and costs",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const writes = await renewalDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.body(null, 204);
    },
  );
