import { Hono } from "hono";
import { renewalBodySchema, renewalQuerySchema, renewBodySchema } from "../../shared/renewals";
import { can } from "../../shared/roles";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import { body, zod } from "../lib/validate";
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
  .get("/", zod("query", renewalQuerySchema), async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const { vehicleId } = c.req.valid("query");
    if (vehicleId) await fuelVehicle(c.var.db, workspaceId, vehicleId);
    const [today, rows] = await Promise.all([
      workspaceToday(c.var.db, workspaceId, Date.now()),
      liveRenewals(c.var.db, workspaceId, vehicleId),
    ]);
    return c.json({ renewals: rows.map((r) => toRenewal(r, today)) });
  })
  .post("/", body(renewalBodySchema), async (c) => {
    const { workspaceId, userId } = sessionThat(c.var.session, "maintenance.manage");
    const now = Date.now();
    const { row, writes } = await renewalWrites(c.var.db, workspaceId, c.req.valid("json"), {
      id: crypto.randomUUID(),
      userId,
      now,
    });
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.json(toRenewal(row, await workspaceToday(c.var.db, workspaceId, now)), 201);
  })
  .post("/:id/renew", body(renewBodySchema), async (c) => {
    const { workspaceId } = sessionThat(c.var.session, "fleet.edit");
    const now = Date.now();
    const { row, writes } = await renewWrites(c.var.db, workspaceId, c.req.param("id"), c.req.valid("json"), now);
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.json(toRenewal(row, await workspaceToday(c.var.db, workspaceId, now)));
  })
  .delete("/:id", async (c) => {
    const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
    const writes = await renewalDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
    await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
    return c.body(null, 204);
  });
