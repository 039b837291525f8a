import { Hono, type Context } from "hono";
import { z } from "zod";
import { can } from "../../shared/roles";
import { serviceEntryBodySchema, serviceScheduleBodySchema } from "../../shared/service";
import { requireSession, workspaceSession, type SessionInfo } from "../auth/session";
import { serviceEntries, serviceSchedules } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../lib/errors";
import { body, zod } from "../lib/validate";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";
import { vehicleReadings } from "../maintenance/readings";
import {
  doneAt,
  liveEntries,
  liveSchedules,
  restartWrites,
  schedulesByIds,
  toEntry,
  toSchedule,
} from "../maintenance/schedules";
import { resolveIssueWrites } from "../maintenance/issue-links";
import { foreignPhotoIds } from "../photos/photo-store";

/**
 * Service for integrators (DESIGN.md "Maintenance"): schedules (owners and admins) and entries
 * (members too). Every query is scoped to the caller's workspace; another workspace's vehicle is
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
  .get("/", zod("query", vehicleQuery), async (c) => {
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
  })
  .post("/", body(serviceScheduleBodySchema), async (c) => {
    const { workspaceId } = sessionThat(c.var.session, "maintenance.manage");
    const input = c.req.valid("json");
    const db = c.var.db;
    const reading = (await vehicleReadings(db, workspaceId, [input.vehicleId])).get(input.vehicleId);
    if (!reading) throw notFound("No such vehicle in this workspace");
    const now = Date.now();
    const lastDoneAt = input.lastDoneAt
      ? input.lastDoneAt.length === 10
        ? doneAt(input.lastDoneAt, now)
        : Date.parse(input.lastDoneAt)
      : now;
    if (lastDoneAt > now + 60_000)
      throw badRequest("lastDoneAt: not in the future", { lastDoneAt: ["Not in the future"] });
    const row = {
      id: crypto.randomUUID(),
      workspaceId,
      vehicleId: input.vehicleId,
      name: input.name,
      everyMiles: input.everyMiles ?? null,
      everyEngineHours: input.everyEngineHours ?? null,
      everyDays: input.everyDays ?? null,
      lastDoneAt,
      // Counted from the vehicle's figures now unless told when it was last done.
      lastDoneOdometerMiles: input.lastDoneOdometerMiles ?? reading.odometerMiles,
      lastDoneEngineHours: input.lastDoneEngineHours ?? reading.engineHours,
      cycle: 0,
      announced: null,
      deleted: false,
      createdVersion: null,
      createdAt: now,
    };
    await commitWorkspaceWrite(
      writeContext(c),
      workspaceId,
      (stamp) => [db.insert(serviceSchedules).values({ ...row, version: stamp })],
      { readYourWrites: true },
    );
    return c.json(toSchedule({ ...row, version: 0 }, reading, now), 201);
  });

export const serviceEntryRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .get("/", zod("query", vehicleQuery), async (c) => {
    const { workspaceId } = workspaceSession(c.var.session);
    const { vehicleId } = c.req.valid("query");
    if (vehicleId && !(await vehicleReadings(c.var.db, workspaceId, [vehicleId])).has(vehicleId))
      throw notFound("No such vehicle in this workspace");
    const rows = await liveEntries(c.var.db, workspaceId, vehicleId, ENTRIES_LIMIT);
    return c.json({ entries: rows.map(toEntry) });
  })
  .post("/", body(serviceEntryBodySchema), async (c) => {
    const { workspaceId, userId } = sessionThat(c.var.session, "fleet.edit");
    const input = c.req.valid("json");
    const db = c.var.db;
    const now = Date.now();
    if (input.date > new Date(now + 14 * 60 * 60_000).toISOString().slice(0, 10))
      throw badRequest("date: not in the future", { date: ["Not in the future"] });
    const reading = (await vehicleReadings(db, workspaceId, [input.vehicleId])).get(input.vehicleId);
    if (!reading) throw notFound("No such vehicle in this workspace");
    const scheduleIds = [...new Set(input.scheduleIds)];
    const schedules = await schedulesByIds(db, workspaceId, scheduleIds);
    if (schedules.length !== scheduleIds.length || schedules.some((s) => s.vehicleId !== input.vehicleId)) {
      throw badRequest("scheduleIds: not a schedule of this vehicle", {
        scheduleIds: ["Not a schedule of this vehicle"],
      });
    }
    if ((await foreignPhotoIds(db, workspaceId, input.photoIds)).length)
      throw notFound("No such photo in this workspace");
    const id = crypto.randomUUID();
    const resolves = await resolveIssueWrites(db, workspaceId, [...new Set(input.resolvesIssueIds)], userId, now, id);
    const row = {
      id,
      workspaceId,
      vehicleId: input.vehicleId,
      date: input.date,
      odometerMiles: input.odometerMiles ?? null,
      engineHours: input.engineHours ?? null,
      description: input.description ?? null,
      costCents: input.costCents ?? null,
      vendor: input.vendor ?? null,
      notes: input.notes ?? null,
      photoIds: input.photoIds,
      scheduleIds,
      resolvesIssueIds: [...new Set(input.resolvesIssueIds)],
      createdByUserId: userId,
      deleted: false,
      createdVersion: null,
      createdAt: now,
    };
    const entry = {
      day: input.date,
      at: doneAt(input.date, now),
      odometerMiles: row.odometerMiles,
      engineHours: row.engineHours,
    };
    await commitWorkspaceWrite(
      writeContext(c),
      workspaceId,
      (stamp) => [
        db.insert(serviceEntries).values({ ...row, version: stamp }),
        ...restartWrites(db, workspaceId, schedules, entry, reading, stamp),
        ...resolves(stamp),
      ],
      { readYourWrites: true },
    );
    return c.json(toEntry({ ...row, version: 0 }), 201);
  });
