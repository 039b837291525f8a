import type { JobStatus, JobVisit } from "../../shared/jobs/jobs";
import type { JobArea } from "./area";
import { localTimeOn } from "../../shared/units/time-zone";

/**
 * A vehicle's day of jobs as the tracker sees it (docs/decisions/0055): each stop where it is, how
 * close counts as there, its window as instants, and what is known of it so far. The workspace's
 * object builds it from the jobs table (times "HH:MM" local on the job's date, in the workspace's
 * zone); domain/jobs/progress.ts folds each fix of the vehicle against it.
 */
export type { JobStatus, JobVisit };

/** What a job's tracking says, as written to its row (and synced to browsers). */
export interface JobProgress {
  status: JobStatus;
  enRouteAt: number | null;
  arrivedAt: number | null;
  departedAt: number | null;
  completedAt: number | null;
  /** When the vehicle is expected at the stop: while it has not arrived, else null. */
  eta: number | null;
  late: boolean;
  /** Every time the vehicle was at the stop, in order (arrivedAt is the first's, departedAt the last's). */
  visits: JobVisit[];
}

export interface PlannedJob extends JobProgress {
  id: string;
  /** The job's number and title, for the alerts it raises to name it (domain/jobs/job-alerts.ts). */
  number: number;
  title: string;
  /** Order among the vehicle's jobs of the day (ascending). */
  sequence: number;
  latitude: number;
  longitude: number;
  radiusMeters: number;
  /** The outline of the place the job is at (null: at a point, there within radiusMeters). */
  area: JobArea | null;
  durationMinutes: number;
  /** The time window as instants (null: open on that side). */
  windowStart: number | null;
  windowEnd: number | null;
}

/** Statuses nothing the vehicle does changes any more (a skipped stop can still be reached: shared/jobs/jobs.ts). */
export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(["completed", "cancelled"]);

/**
 * How far along a status is: of two views of a job (its row, the vehicle's fold), the further one
 * holds. Scheduled and en route rank alike: which stop is en route follows the vehicle and its
 * order (the first not reached, while it drives), so a stop moved from first goes back to
 * scheduled, and the fold's view of the two wins over a row it has not reloaded (ADR 0083).
 */
export const STATUS_RANK: Record<JobStatus, number> = {
  scheduled: 0,
  en_route: 0,
  skipped: 1,
  arrived: 2,
  completed: 3,
  cancelled: 3,
};

export const isOpen = (job: Pick<JobProgress, "status">) => !FINAL_STATUSES.has(job.status);

/** Where a window's "HH:MM" falls: one definition, in shared/ (the pages say how late a stop was too). */
export { localTimeOn };

export const NO_PROGRESS: JobProgress = {
  status: "scheduled",
  enRouteAt: null,
  arrivedAt: null,
  departedAt: null,
  completedAt: null,
  eta: null,
  late: false,
  visits: [],
};
