import type { JobStatus } from "../../shared/jobs/jobs";
import type { JobArea } from "./area";
import { offsetMinutes, startOfDay } from "../../shared/units/time-zone";

/**
 * A vehicle's day of jobs as the tracker sees it (docs/decisions/0055): each stop where it is, how
 * close counts as there, its window as instants, and what is known of it so far. The workspace's
 * object builds it from the jobs table (times "HH:MM" local on the job's date, in the workspace's
 * zone); domain/jobs/progress.ts folds each fix of the vehicle against it.
 */
export type { JobStatus };

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
}

export interface PlannedJob extends JobProgress {
  id: string;
  /** The job's number and title, for the alerts it raises to name it (domain/jobs/alerts.ts). */
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

/** How far along a status is: of two views of a job (its row, the vehicle's fold), the further one holds. */
export const STATUS_RANK: Record<JobStatus, number> = {
  scheduled: 0,
  en_route: 1,
  skipped: 1,
  arrived: 2,
  completed: 3,
  cancelled: 3,
};

export const isOpen = (job: Pick<JobProgress, "status">) => !FINAL_STATUSES.has(job.status);

/**
 * The instant a local wall-clock time ("HH:MM") falls on `day` in `timeZone`. On a day whose
 * clocks change, a time in the hour that does not exist lands an hour later, as a phone's would.
 */
export function localTimeOn(day: string, hhmm: string, timeZone: string): number {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const midnight = startOfDay(day, timeZone);
  const guess = midnight + (h * 60 + m) * 60_000;
  // The offset at the guess differs from midnight's when the clocks changed in between.
  return guess + (offsetMinutes(midnight, timeZone) - offsetMinutes(guess, timeZone)) * 60_000;
}

export const NO_PROGRESS: JobProgress = {
  status: "scheduled",
  enRouteAt: null,
  arrivedAt: null,
  departedAt: null,
  completedAt: null,
  eta: null,
  late: false,
};
