import { jobVisits, timeOnSite, type JobVisit } from "../../shared/jobs/jobs";
import { localTimeOn } from "./planned-job";

/**
 * The on-time report's figures (DESIGN.md "Jobs and routes", `GET /api/reports/jobs`), per
 * vehicle: of its jobs in the range (cancelled ones left out), how many were completed, skipped,
 * and the average time at a stop (its visits' time there, where a departure is known: a vehicle
 * that left and came back is not counted as there meanwhile). On time and late
 * split the completed jobs (docs/figures.md): a completed job is late when it was reached (its
 * arrival, or its completion when it has none) after the window's end in the workspace's zone, on
 * time otherwise (no window: on time), so on time + late = completed. A stop only arrived at is
 * neither yet: counting it made "Completed 2, On time 3".
 */
export interface OnTimeJob {
  vehicleId: string;
  date: string;
  status: string;
  windowEnd: string | null;
  arrivedAt: number | null;
  departedAt: number | null;
  completedAt: number | null;
  /** Every visit (shared/jobs/jobs.ts jobVisits: none kept means the one arrival to departure). */
  visits?: JobVisit[];
}

export interface OnTimeFigures {
  jobs: number;
  completed: number;
  onTime: number;
  late: number;
  skipped: number;
  /** null when no job of the vehicle has both an arrival and a departure */
  averageDwellMinutes: number | null;
}

/**
 * The figures per vehicle, or per whatever `keyOf` groups by (the report's chart counts per local
 * day with `(job) => job.date`): one rule, whichever way the jobs are grouped.
 */
export function onTimeFigures(
  jobs: readonly OnTimeJob[],
  timeZone: string,
  keyOf: (job: OnTimeJob) => string = (job) => job.vehicleId,
): Map<string, OnTimeFigures> {
  const sums = new Map<string, OnTimeFigures & { dwellMs: number; dwells: number }>();
  for (const job of jobs) {
    if (job.status === "cancelled") continue;
    const f = sums.get(keyOf(job)) ?? { ...empty(), dwellMs: 0, dwells: 0 };
    sums.set(keyOf(job), f);
    f.jobs++;
    if (job.status === "completed") f.completed++;
    if (job.status === "skipped") f.skipped++;
    const reachedAt = job.arrivedAt ?? job.completedAt;
    if (job.status === "completed" && reachedAt !== null) {
      const late = job.windowEnd !== null && reachedAt > localTimeOn(job.date, job.windowEnd, timeZone);
      if (late) f.late++;
      else f.onTime++;
    }
    if (job.arrivedAt !== null && job.departedAt !== null && job.departedAt >= job.arrivedAt) {
      f.dwellMs += timeOnSite(jobVisits({ ...job, visits: job.visits ?? [] }), job.departedAt);
      f.dwells++;
    }
  }
  return new Map(
    [...sums].map(([key, { dwellMs, dwells, ...f }]) => [
      key,
      { ...f, averageDwellMinutes: dwells ? Math.round(dwellMs / dwells / 6_000) / 10 : null },
    ]),
  );
}

export const empty = (): OnTimeFigures => ({
  jobs: 0,
  completed: 0,
  onTime: 0,
  late: 0,
  skipped: 0,
  averageDwellMinutes: null,
});
