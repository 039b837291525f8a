import { and, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { PlaceGeometry } from "../../shared/places/places";
import type { AlertRule } from "../../shared/alerts/alert-rules";
import type { FleetModule } from "../../domain/fold/fold";
import { jobsModule, type PlansOf } from "../../domain/jobs/module";
import { jobArea, type JobArea } from "../../domain/jobs/area";
import { localTimeOn, type PlannedJob } from "../../domain/jobs/planned-job";
import type { JobTransition } from "../../domain/jobs/progress";
import { addDays, dayOf, DEFAULT_TIME_ZONE } from "../../shared/units/time-zone";
import { MAX_JOBS_PER_DAY, MAX_JOBS_PER_VEHICLE_DAY } from "../../shared/jobs/jobs";
import type { Db } from "../../db/client";
import { recordedHours } from "../../db/recorded-driving";
import { DEFAULT_HOUR_SHAPE, learnedHourShape, type HourShape } from "../../domain/routing/street-travel";
import { jobs, places } from "../../db/schema";

/**
 * The jobs a workspace's object follows as it folds reports (docs/decisions/0055): the assigned,
 * not cancelled jobs of the days around today, per vehicle and day, held in memory. Read from D1
 * on first use, again when the Worker says jobs changed (`FleetRoom.changed({ jobs: true })`, as
 * places are) and when the local day moves on; not stored in the object: 10,000 jobs are about
 * 2.5 MB, past one SQLite row, and one D1 query per object start costs less than keeping them.
 */
export const JOB_DAYS_BEFORE = 1;
export const JOB_DAYS_AFTER = 1;
/** A failed read is tried again at most this often (ingestion meanwhile follows the jobs it had). */
const RETRY_MS = 30_000;

type PlanRow = Pick<
  typeof jobs.$inferSelect,
  | "id"
  | "number"
  | "title"
  | "placeId"
  | "vehicleId"
  | "date"
  | "sequence"
  | "latitude"
  | "longitude"
  | "radiusMeters"
  | "durationMinutes"
  | "windowStart"
  | "windowEnd"
  | "status"
  | "enRouteAt"
  | "arrivedAt"
  | "departedAt"
  | "completedAt"
  | "eta"
  | "late"
  | "visits"
> & { placeGeometry: PlaceGeometry | null };

/**
 * The most the object follows of one day: the workspace's day at its bound (worker/jobs/job-caps.ts
 * refuses more). A workspace that holds more (jobs written before the bound) is followed in part,
 * and the log says so, rather than every tenant waiting on its ETAs (issue 51).
 */
export const MAX_FOLLOWED_PER_DAY = MAX_JOBS_PER_DAY;

/**
 * The workspace's assigned, live jobs of `days` (one query): MAX_FOLLOWED_PER_DAY a day's worth at
 * most, and one more when it holds more.
 */
export async function readPlanRows(db: Db, workspaceId: string, days: string[]): Promise<PlanRow[]> {
  const c = jobs;
  return db
    .select({
      id: c.id,
      number: c.number,
      title: c.title,
      placeId: c.placeId,
      // the place's outline, while the place is live: arrival is entering it (domain/jobs/area.ts)
      placeGeometry: places.geometry,
      vehicleId: c.vehicleId,
      date: c.date,
      sequence: c.sequence,
      latitude: c.latitude,
      longitude: c.longitude,
      radiusMeters: c.radiusMeters,
      durationMinutes: c.durationMinutes,
      windowStart: c.windowStart,
      windowEnd: c.windowEnd,
      status: c.status,
      enRouteAt: c.enRouteAt,
      arrivedAt: c.arrivedAt,
      departedAt: c.departedAt,
      completedAt: c.completedAt,
      eta: c.eta,
      late: c.late,
      visits: c.visits,
    })
    .from(c)
    .leftJoin(places, and(eq(places.id, c.placeId), eq(places.workspaceId, c.workspaceId), eq(places.deleted, false)))
    .where(
      and(
        eq(c.workspaceId, workspaceId),
        // in-list: the days around today (JOB_DAYS_BEFORE + 1 + JOB_DAYS_AFTER), a handful
        inArray(c.date, days),
        isNotNull(c.vehicleId),
        eq(c.deleted, false),
        ne(c.status, "cancelled"),
      ),
    )
    .limit(days.length * MAX_FOLLOWED_PER_DAY + 1);
}

/**
 * A row as the tracker sees it: its window as instants in the workspace's zone, its place's outline
 * compiled (`areas`: once per place for the whole read, however many jobs are at it).
 */
export function plannedJob(row: PlanRow, timeZone: string, areas = new Map<string, JobArea>()): PlannedJob {
  const { vehicleId: _vehicle, date, windowStart, windowEnd, placeId, placeGeometry, ...rest } = row;
  // keyed by the point too: a job planned before its place moved still heads for the old centre
  const key = `${placeId}@${rest.latitude},${rest.longitude}`;
  let area = placeId ? (areas.get(key) ?? null) : null;
  if (placeId && placeGeometry && !area) areas.set(key, (area = jobArea(placeId, placeGeometry, rest)));
  return {
    ...rest,
    area,
    windowStart: windowStart ? localTimeOn(date, windowStart, timeZone) : null,
    windowEnd: windowEnd ? localTimeOn(date, windowEnd, timeZone) : null,
  };
}

export class DayPlans {
  /** By vehicle, then date; each day's jobs in sequence order. */
  #plans = new Map<string, Map<string, PlannedJob[]>>();
  /** The days loaded, around which local day, in which zone (null: nothing loaded yet). */
  #loaded: { today: string; timeZone: string } | null = null;
  #stale = true;
  #failedAt = 0;
  /**
   * The workspace's shape of a day for the live ETA, learned from its driving (docs/decisions/0097):
   * read with the jobs when the local day moves on (the learned days change once a day), the
   * default until then and when the read fails.
   */
  #hourShape: HourShape = DEFAULT_HOUR_SHAPE;
  #shapeDay: string | null = null;

  constructor(
    private readonly workspaceId: string,
    private readonly db: () => Db,
  ) {}

  /** Jobs changed: read again before the next report is folded. */
  invalidate() {
    this.#stale = true;
    this.#failedAt = 0;
  }

  /** The jobs module over the plans, read again first if jobs changed or the day moved on. */
  async modules(
    now: number,
    timeZone: string | null,
    rules: readonly AlertRule[],
    notify?: (vehicleId: string, t: JobTransition[]) => void,
  ) {
    const zone = timeZone ?? DEFAULT_TIME_ZONE;
    const today = dayOf(now, zone);
    const moved = this.#loaded?.today !== today || this.#loaded.timeZone !== zone;
    if ((this.#stale || moved) && now - this.#failedAt >= RETRY_MS) await this.#reload(today, zone, now);
    // Only for a workspace with jobs to estimate: the others pay no read.
    if (this.#shapeDay !== today && this.#plans.size && now - this.#failedAt >= RETRY_MS)
      await this.#readShape(today, now);
    const plansOf: PlansOf = (vehicleId) => this.#plans.get(vehicleId);
    return [jobsModule(plansOf, rules, notify, this.#hourShape) as FleetModule];
  }

  /** The learned shape of a day, read once per local day (28 days' hour rows summed by hour: 24 rows). */
  async #readShape(today: string, now: number) {
    try {
      this.#hourShape = learnedHourShape(await recordedHours(this.db(), this.workspaceId, today));
      this.#shapeDay = today;
    } catch (error) {
      this.#failedAt = now;
      console.error("jobs: reading the workspace's driving by hour failed; the default shape stands:", error);
    }
  }

  async #reload(today: string, timeZone: string, now: number) {
    const days = [];
    for (let d = -JOB_DAYS_BEFORE; d <= JOB_DAYS_AFTER; d++) days.push(addDays(today, d));
    try {
      const rows = await readPlanRows(this.db(), this.workspaceId, days);
      if (rows.length > days.length * MAX_FOLLOWED_PER_DAY)
        console.warn(`jobs: workspace ${this.workspaceId} has more jobs around ${today} than are followed`);
      const plans = new Map<string, Map<string, PlannedJob[]>>();
      const areas = new Map<string, JobArea>();
      for (const row of rows) {
        const days = plans.get(row.vehicleId!) ?? new Map<string, PlannedJob[]>();
        if (!days.size) plans.set(row.vehicleId!, days);
        const plan = days.get(row.date) ?? [];
        if (!plan.length) days.set(row.date, plan);
        plan.push(plannedJob(row, timeZone, areas));
      }
      // a vehicle's day past its bound (written before it) is followed in its first stops only
      for (const days of plans.values())
        for (const [date, plan] of days)
          days.set(date, plan.sort((a, b) => a.sequence - b.sequence).slice(0, MAX_JOBS_PER_VEHICLE_DAY));
      this.#plans = plans;
      this.#loaded = { today, timeZone };
      this.#stale = false;
    } catch (error) {
      this.#failedAt = now;
      console.error("jobs: reading the day's jobs from D1 failed; the ones held are followed:", error);
    }
  }
}
