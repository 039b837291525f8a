import { Hono, type Context } from "hono";
import { z } from "zod";
import { can } from "../../shared/account/roles";
import {
  serviceEntryBodySchema,
  serviceScheduleBodySchema,
  serviceSchedulePatchSchema,
} from "../../shared/maintenance/service";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden, notFound } from "../lib/errors";
import type { AppEnv } from "../types";
import { serviceSchedule, serviceEntry } from "./maintenance-answers";
import { declared } from "./route-declaration/declare";
import { commitWorkspaceWrite } from "../workspace-object";
import { vehicleReadings } from "../maintenance/readings";
import { liveEntries, liveSchedules, toEntry, toSchedule } from "../maintenance/schedules";
import { serviceEntryWrites, serviceScheduleWrites } from "../maintenance/service-writes";
import { entryDeleteWrites, scheduleDeleteWrites, scheduleUpdateWrites } from "../maintenance/service-changes";

/**
 * Service for integrators (DESIGN.md "Maintenance"): schedules (owners and admins add, edit and
 * delete them) and entries (members log them; owners and admins delete one logged by mistake). Every query is scoped to the caller's workspace; another workspace's vehicle is
 * a 404 like one that does not exist. An entry, the schedules it restarts and the issues it
 * resolves are one transaction: nothing half-written.
 */
export const vehicleQuery = z.object({ vehicleId: z.string().min(1).max(100).optional() });
/** Entries answered per request (a vehicle's whole history is rarely wanted at once). */
const ENTRIES_LIMIT = 500;

function sessionThat(session: SessionInfo, action: "fleet.edit" | "maintenance.manage") {
  const scoped = workspaceSession(session);
  if (!can(session.role, action))
    throw forbidden(
      action === "fleet.edit" ? "Viewers cannot log service" : "Only owners and admins manage service schedules",
    );
  return scoped;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any route's context of this app
const writeContext = (c: Context<AppEnv, any, any>) => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
});

export const serviceScheduleRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Service schedules and when each is due",
      tag: "Maintenance",
      query: vehicleQuery,
      response: z.object({ schedules: z.array(serviceSchedule) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("query");
      const [rows, readings] = await Promise.all([
        liveSchedules(c.var.db, workspaceId, vehicleId),
        vehicleReadings(c.var.db, workspaceId, vehicleId ? [vehicleId] : undefined),
      ]);
      if (vehicleId && !readings.has(vehicleId)) throw notFound("No such vehicle in this workspace");
      const now = Date.now();
      const schedules = rows
        .filter((r) => readings.has(r.vehicleId))
        .map((r) => toSchedule(r, readings.get(r.vehicleId)!, now));
      return c.json({ schedules });
    },
  )
  .post(
    "/",
    declared({
      permission: "maintenance.manage",
      summary: "Add a service schedule (at least one interval)",
      tag: "Maintenance",
      body: serviceScheduleBodySchema,
      response: serviceSchedule,
      status: 201,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const now = Date.now();
      const { row, reading, writes } = await serviceScheduleWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        now,
      });
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toSchedule({ ...row, version: 0 }, reading, now), 201);
    },
  )
  .patch(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary:
        "Edit a service schedule (owners and admins): null removes an interval, at least one must remain; the last-done basis is kept unless given",
      tag: "Maintenance",
      body: serviceSchedulePatchSchema,
      response: serviceSchedule,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const now = Date.now();
      const { row, reading, writes } = await scheduleUpdateWrites(
        c.var.db,
        workspaceId,
        c.req.param("id"),
        c.req.valid("json"),
        now,
      );
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toSchedule(row, reading, now));
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary: "Delete a service schedule (owners and admins): it is no longer due anywhere",
      tag: "Maintenance",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const writes = await scheduleDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.body(null, 204);
    },
  );

export const serviceEntryRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get(
    "/",
    declared({
      permission: "workspace.view",
      summary: "Service done (the latest 500)",
      tag: "Maintenance",
      query: vehicleQuery,
      response: z.object({ entries: z.array(serviceEntry) }),
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { vehicleId } = c.req.valid("query");
      if (vehicleId && !(await vehicleReadings(c.var.db, workspaceId, [vehicleId])).has(vehicleId))
        throw notFound("No such vehicle in this workspace");
      const rows = await liveEntries(c.var.db, workspaceId, vehicleId, ENTRIES_LIMIT);
      return c.json({ entries: rows.map(toEntry) });
    },
  )
  .post(
    "/",
    declared({
      permission: "fleet.edit",
      summary: "Log service: restarts the schedules and resolves the issues it names",
      tag: "Maintenance",
      body: serviceEntryBodySchema,
      response: serviceEntry,
      status: 201,
    }),
    async (c) => {
      const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
      const { row, writes } = await serviceEntryWrites(c.var.db, workspaceId, c.req.valid("json"), {
        id: crypto.randomUUID(),
        userId,
        now: Date.now(),
      });
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.json(toEntry({ ...row, version: 0 }), 201);
    },
  )
  .delete(
    "/:id",
    declared({
      permission: "maintenance.manage",
      summary:
        "Delete a service entry logged by mistake (owners and admins); the schedules it restarted and the issues it resolved stay as they are",
      tag: "Maintenance",
      status: 204,
    }),
    async (c) => {
      const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
      const writes = await entryDeleteWrites(c.var.db, workspaceId, c.req.param("id"));
      await commitWorkspaceWrite(writeContext(c), workspaceId, writes, { readYourWrites: true });
      return c.body(null, 204);
    },
  );
