import { and, eq, gte, inArray, sql } from "drizzle-orm";
import { MAX_JOBS_PER_DAY, MAX_JOBS_PER_VEHICLE_DAY, MAX_UPCOMING_JOBS } from "../../shared/jobs/jobs";
import { addDays, dayOf } from "../../shared/units/time-zone";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { jobs } from "../../db/schema";
import { limitReached } from "../lib/errors";

/**
 * The bounds on a workspace's jobs (issue 51, finding 2, docs/decisions/0071): a vehicle's day, the
 * workspace's day and its upcoming jobs, checked before every write that adds a job to a day (a
 * new job, an import, a job moved to another vehicle or date, a reorder) and answered 409
 * `limit_reached` naming the bound. Live jobs count, cancelled ones too (a cancelled job is
 * scheduled again with one click); tombstones do not. Counted from the partial index
 * `jobs_ws_live_date_idx` (migrations/0037), the days named only.
 */

/** Where a job is (vehicle null: unassigned). */
export interface JobPlace {
  vehicleId: string | null;
  date: string;
}

/** A job arriving at `to`: new (`from` null) or moved from where it was. */
export interface JobMove {
  from: JobPlace | null;
  to: JobPlace;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const vehicleDay = (p: JobPlace) => `${p.vehicleId}|${p.date}`;

/** What the moves add to each day, each vehicle's day and the upcoming count (a job staying where it is adds nothing). */
function additions(moves: JobMove[], horizon: string) {
  const days = new Map<string, number>();
  const vehicleDays = new Map<string, number>();
  let upcoming = 0;
  for (const { from, to } of moves) {
    if (from?.date !== to.date) days.set(to.date, (days.get(to.date) ?? 0) + 1);
    if (to.vehicleId && (from?.vehicleId !== to.vehicleId || from.date !== to.date))
      vehicleDays.set(vehicleDay(to), (vehicleDays.get(vehicleDay(to)) ?? 0) + 1);
    if (to.date >= horizon && !(from && from.date >= horizon)) upcoming++;
  }
  return { days, vehicleDays, upcoming };
}

/** The live jobs of those days, per day and per vehicle's day. */
async function dayCounts(db: Db, workspaceId: string, dates: string[]) {
  const days = new Map<string, number>();
  const vehicleDays = new Map<string, number>();
  for (const part of inLists(dates)) {
    const rows = await db
      .select({ date: jobs.date, vehicleId: jobs.vehicleId, n: sql<number>`count(*)` })
      .from(jobs)
      .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false), inArray(jobs.date, part)))
      .groupBy(jobs.date, jobs.vehicleId)
      .all();
    for (const r of rows) {
      days.set(r.date, (days.get(r.date) ?? 0) + r.n);
      if (r.vehicleId) vehicleDays.set(vehicleDay(r), r.n);
    }
  }
  return { days, vehicleDays };
}

/** Throws 409 `limit_reached` when the moves would take a day, a vehicle's day or the upcoming jobs past their bound. */
export async function refuseOverJobBounds(db: Db, workspaceId: string, moves: JobMove[], now: number) {
  const horizon = addDays(dayOf(now, "UTC"), -1);
  const added = additions(moves, horizon);
  if (!added.days.size && !added.vehicleDays.size && !added.upcoming) return;
  const held = await dayCounts(db, workspaceId, [...new Set(moves.map((m) => m.to.date))]);
  for (const [date, n] of added.days) {
    const total = (held.days.get(date) ?? 0) + n;
    if (total > MAX_JOBS_PER_DAY)
      throw limitReached(
        `A workspace's day holds at most ${fmt(MAX_JOBS_PER_DAY)} jobs: ${date} would have ${fmt(total)}`,
      );
  }
  for (const [key, n] of added.vehicleDays) {
    const total = (held.vehicleDays.get(key) ?? 0) + n;
    if (total > MAX_JOBS_PER_VEHICLE_DAY)
      throw limitReached(
        `A vehicle's day holds at most ${fmt(MAX_JOBS_PER_VEHICLE_DAY)} jobs: ${key.split("|")[1]} would have ${fmt(total)}`,
      );
  }
  if (!added.upcoming) return;
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(jobs)
    .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false), gte(jobs.date, horizon)))
    .get();
  const total = (row?.n ?? 0) + added.upcoming;
  if (total > MAX_UPCOMING_JOBS)
    throw limitReached(
      `A workspace holds at most ${fmt(MAX_UPCOMING_JOBS)} jobs from yesterday on (it would have ${fmt(total)}): delete some first`,
    );
}
