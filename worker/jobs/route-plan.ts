import { and, eq, inArray } from "drizzle-orm";
import { clockMinutes, type JobStatus } from "../../shared/jobs/jobs";
import {
  DEFAULT_SHIFT,
  MAX_PLAN_JOBS,
  type PlanPlace,
  type RoutePlan,
  type RoutePlanBody,
} from "../../shared/jobs/route-plan";
import { dayOf, startOfDay } from "../../shared/units/time-zone";
import type { LatLon } from "../../shared/units/geo";
import { planDaySteps, type DayJob, type DayVehicle } from "../../domain/routing/day-plan";
import { runCooperatively } from "../../domain/routing/steps";
import { streetTravel } from "../../domain/routing/street-travel";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { recordedDriving } from "../../db/recorded-driving";
import { jobs, vehicles } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { workspaceTimeZone } from "../lib/workspace-time-zone";
import { jobPlacePoint } from "./job-places";
import type { JobRow } from "./job-writes";

/**
 * `POST /api/routes/plan` (issue 54, docs/decisions/0076): the day's jobs and vehicles read from
 * D1, planned on street travel learned from the workspace's rollups, answered as instants.
 * Nothing is written. Done and en-route stops are never replanned: a vehicle with some sets off
 * from the last of them, and no one sets off before now on today's plan.
 */

/**
 * The planner's work: on Cloudflare the clock stands still while code computes (ADR 0070), so a
 * plan is bounded by iterations, not by a time budget alone. An iteration's cost grows with the
 * jobs (its insertions try every route), so the cap is a budget of iterations × jobs: measured on
 * this 2-core machine under a load of 14, 2,000 iterations took 0.5 s at 100 jobs and 2.5 s at
 * 500 (construction 1 s); 1.5 M is about 4 s there, a fraction of that on an idle core. The time
 * budget ends it sooner where the clock does advance (local workerd).
 */
const WORK_BUDGET = 1_500_000;
const MIN_ITERATIONS = 1_000;
const MAX_ITERATIONS = 30_000;
export const planIterations = (jobs: number) =>
  Math.max(MIN_ITERATIONS, Math.min(MAX_ITERATIONS, Math.floor(WORK_BUDGET / Math.max(1, jobs))));
const TIME_LIMIT_MS = 2_000;
/**
 * Between the planner's steps, the thread goes back to the isolate's other requests (another
 * workspace's among them): a timer, not a microtask, so their I/O callbacks run before the plan
 * goes on. Their clock moves on too, so the time limit holds on Cloudflare as well.
 */
const handBack = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** A job's place in the day the planner may move: the rest is done, on its way, or set aside. */
const PLANNABLE: JobStatus = "scheduled";
const STARTED: readonly JobStatus[] = ["en_route", "arrived", "completed"];

async function dayJobs(db: Db, workspaceId: string, date: string, jobIds: readonly string[] | undefined) {
  const live = and(eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false));
  if (!jobIds)
    return db
      .select()
      .from(jobs)
      .where(and(live, eq(jobs.date, date)))
      .all();
  const rows: JobRow[] = [];
  for (const part of inLists([...jobIds]))
    rows.push(
      ...(await db
        .select()
        .from(jobs)
        .where(and(live, inArray(jobs.id, part)))
        .all()),
    );
  if (rows.length !== new Set(jobIds).size) throw notFound("No such job in this workspace");
  const elsewhere = rows.find((r) => r.date !== date);
  if (elsewhere)
    throw badRequest(`jobIds: job ${elsewhere.id} is on ${elsewhere.date}, not ${date}`, {
      jobIds: ["Jobs of the plan's date only"],
    });
  const notScheduled = rows.find((r) => r.status !== PLANNABLE);
  if (notScheduled)
    throw badRequest(`jobIds: job ${notScheduled.id} is ${notScheduled.status}: only scheduled jobs are planned`, {
      jobIds: ["Scheduled jobs only"],
    });
  return rows;
}

async function planVehicles(db: Db, workspaceId: string, vehicleIds: readonly string[] | undefined) {
  const live = and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false));
  // The vehicles named (up to MAX_PLAN_VEHICLES, more than one IN list holds), else the active fleet.
  const wanted = vehicleIds
    ? inLists([...new Set(vehicleIds)]).map((part) => and(live, inArray(vehicles.id, part)))
    : [and(live, eq(vehicles.status, "ACTIVE"))];
  const rows = [];
  for (const where of wanted)
    rows.push(
      ...(await db
        .select({
          id: vehicles.id,
          name: vehicles.name,
          capacity: vehicles.capacity,
          shiftStart: vehicles.shiftStart,
          shiftEnd: vehicles.shiftEnd,
          homePlaceId: vehicles.homePlaceId,
        })
        .from(vehicles)
        .where(where)
        .all()),
    );
  if (vehicleIds && rows.length !== new Set(vehicleIds).size) throw notFound("No such vehicle in this workspace");
  // By name, then id, as SQLite would order them: the plan is the same whichever list a vehicle came in.
  const byNameThenId = (x: { name: string; id: string }, y: { name: string; id: string }) =>
    x.name < y.name ? -1 : x.name > y.name ? 1 : x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  return rows.sort(byNameThenId);
}
type PlanVehicle = Awaited<ReturnType<typeof planVehicles>>[number];

/** A vehicle's home: its place's centre, or none when the place has been deleted since. */
async function homePoint(db: Db, workspaceId: string, placeId: string | null): Promise<LatLon | null> {
  if (!placeId) return null;
  return jobPlacePoint(db, workspaceId, placeId).catch(() => null);
}

async function pointOf(db: Db, workspaceId: string, place: PlanPlace | undefined): Promise<LatLon | null> {
  if (!place) return null;
  if ("placeId" in place) return jobPlacePoint(db, workspaceId, place.placeId);
  return { latitude: place.latitude, longitude: place.longitude };
}

const toDayJob = (row: JobRow): DayJob => ({
  id: row.id,
  point: { latitude: row.latitude, longitude: row.longitude },
  windowStart: row.windowStart ? clockMinutes(row.windowStart) * 60 : null,
  windowEnd: row.windowEnd ? clockMinutes(row.windowEnd) * 60 + 59 : null,
  serviceSeconds: row.durationMinutes * 60,
  size: row.size,
  vehicleId: row.vehicleId,
  sequence: row.sequence,
});

/** The jobs the plan moves: scheduled, and (keepAssigned) on no vehicle or on one of the plan's. */
function plannable(rows: readonly JobRow[], vehicleIds: readonly string[], body: RoutePlanBody) {
  const inPlan = new Set(vehicleIds);
  return rows.filter(
    (r) => r.status === PLANNABLE && (body.jobIds || !body.keepAssigned || !r.vehicleId || inPlan.has(r.vehicleId)),
  );
}

export async function proposeRoutePlan(
  db: Db,
  workspaceId: string,
  body: RoutePlanBody,
  now: number,
): Promise<RoutePlan> {
  const timeZone = await workspaceTimeZone(db, workspaceId);
  const fleet = await planVehicles(db, workspaceId, body.vehicleIds);
  const vehicleIds = fleet.map((v) => v.id);
  const rows = await dayJobs(db, workspaceId, body.date, body.jobIds);
  const planned = plannable(rows, vehicleIds, body);
  if (planned.length > MAX_PLAN_JOBS)
    throw badRequest(
      `The day has ${planned.length.toLocaleString("en-US")} jobs to plan; a plan takes at most ${MAX_PLAN_JOBS.toLocaleString("en-US")}: name some with jobIds`,
      { jobIds: [`At most ${MAX_PLAN_JOBS} jobs a plan`] },
    );
  const midnight = startOfDay(body.date, timeZone);
  const today = dayOf(now, timeZone);
  const vehicles = await dayVehicles(db, workspaceId, body, {
    fleet,
    dayRows: rows,
    notBefore: body.date === today ? Math.ceil((now - midnight) / 1000) : 0,
  });
  const travel = streetTravel(await recordedDriving(db, workspaceId, today));
  const plan = await runCooperatively(
    planDaySteps({
      jobs: planned.map(toDayJob),
      vehicles,
      keepAssigned: body.keepAssigned,
      travel,
      seed: 1,
      maxIterations: planIterations(planned.length),
      timeLimitMs: TIME_LIMIT_MS,
    }),
    handBack,
  );
  const version = new Map(planned.map((r) => [r.id, r.version]));
  const instant = (seconds: number) => new Date(midnight + Math.round(seconds) * 1000).toISOString();
  return {
    routes: plan.routes.map((route) => ({
      ...route,
      stops: route.stops.map((s) => ({
        jobId: s.jobId,
        arrival: instant(s.arrival),
        start: instant(s.start),
        version: version.get(s.jobId)!,
      })),
    })),
    unassigned: plan.unassigned,
    before: plan.before,
    after: plan.after,
  };
}

/**
 * Each plan vehicle's shift, start, end and capacity: the request's, else the vehicle's own, else
 * the defaults (an open route, 08:00-18:00, unbounded). A vehicle whose day has started sets off
 * from its last started stop, and not before now.
 */
async function dayVehicles(
  db: Db,
  workspaceId: string,
  body: RoutePlanBody,
  day: { fleet: readonly PlanVehicle[]; dayRows: readonly JobRow[]; notBefore: number },
): Promise<DayVehicle[]> {
  const start = await pointOf(db, workspaceId, body.start);
  const end = await pointOf(db, workspaceId, body.end);
  const seconds = (clock: string) => clockMinutes(clock) * 60;
  const vehicles: DayVehicle[] = [];
  for (const v of day.fleet) {
    const home = body.start && body.end ? null : await homePoint(db, workspaceId, v.homePlaceId);
    const started = day.dayRows
      .filter((r) => r.vehicleId === v.id && STARTED.includes(r.status))
      .sort((a, b) => a.sequence - b.sequence || a.number - b.number)
      .at(-1);
    vehicles.push({
      id: v.id,
      capacity: v.capacity ?? Number.MAX_SAFE_INTEGER,
      start: started ? { latitude: started.latitude, longitude: started.longitude } : (start ?? home),
      end: end ?? home,
      shiftStart: Math.max(seconds(body.shiftStart ?? v.shiftStart ?? DEFAULT_SHIFT.start), day.notBefore),
      shiftEnd: seconds(body.shiftEnd ?? v.shiftEnd ?? DEFAULT_SHIFT.end),
    });
  }
  return vehicles;
}
