import { isJobFinal, type JobStatus } from "../../shared/jobs/jobs";

/** A job's status as people read it (DESIGN.md "Jobs and routes"), for the dispatcher, the driver and the customer. */
export const JOB_STATUS_WORDS: Record<string, string> = {
  scheduled: "Scheduled",
  en_route: "On the way",
  arrived: "Arrived",
  completed: "Completed",
  skipped: "Skipped",
  cancelled: "Cancelled",
};

export const jobStatusWords = (status: string) => JOB_STATUS_WORDS[status] ?? status;

/** Statuses after which nothing more happens at the stop. */
export const isFinished = (status: string) => status === "completed" || status === "skipped" || status === "cancelled";

/**
 * Over for good (completed or cancelled): its place in the day is kept and the driver has nothing
 * left to do there. A skipped stop is not: it can still be reached and done (shared/jobs/jobs.ts).
 */
export const isOverForGood = (status: string) => isJobFinal(status as JobStatus);

/**
 * A stop's status as the dispatcher reads it: the job's status, except that an arrived stop the
 * vehicle has left (it left before its expected time there, so the server keeps it arrived for the
 * driver to mark done: domain/jobs/progress.ts) says so, rather than "Arrived" long after the
 * vehicle has gone (issue 53).
 */
export function stopStatusWords(stop: { status: string; departedAt?: number | null }): string {
  if (stop.status === "arrived" && stop.departedAt) return "Left, not marked done";
  return jobStatusWords(stop.status);
}
