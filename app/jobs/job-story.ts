import type { SyncedJob } from "../../shared/jobs/jobs";
import type { JobStoryExtras, JobVisit } from "./job-story-extras";

/**
 * What a stop's story says (issue 53), worked out of the synced job (so it reads offline) and, when
 * the server has answered, what only the server knows (`visits`, `lateMinutes`, `messages`:
 * job-story-extras.ts). Pure, so the rules are tested without a browser.
 */
export type StoryJob = Pick<
  SyncedJob,
  "status" | "late" | "eta" | "enRouteAt" | "arrivedAt" | "departedAt" | "completedAt"
>;

export interface JobStory {
  /** The ETA, only while the stop is still ahead (scheduled or on the way). */
  eta: number | null;
  /** Whole minutes from now to the ETA (0 when due), with the ETA. */
  etaInMinutes: number | null;
  /** By how much the stop is or was late, when the server said; null otherwise (then only `late`). */
  lateMinutes: number | null;
  /** Every time the vehicle was at the stop, first to last (one visit at most without the server). */
  visits: JobVisit[];
  /** Time at the stop over every visit, up to now while the vehicle is still there. */
  onSiteMs: number | null;
  /** The vehicle is at the stop now (arrived, not left, not done). */
  onSiteNow: boolean;
}

const isAhead = (status: string) => status === "scheduled" || status === "en_route";

/** The visits: the server's list when it sent one, else the synced job's one arrival and departure. */
function visitsOf(job: StoryJob, extras: JobStoryExtras | null): JobVisit[] {
  if (extras?.visits?.length) return extras.visits;
  if (job.arrivedAt === null) return [];
  return [{ arrivedAt: job.arrivedAt, departedAt: job.departedAt }];
}

/**
 * How long the vehicle was at the stop: each visit from arrival to departure; a last visit not left
 * ends when the driver marked the stop done, or runs on to `now` while the stop is still arrived.
 */
function timeOnSite(job: StoryJob, visits: readonly JobVisit[], now: number): number | null {
  if (visits.length === 0) return null;
  let total = 0;
  visits.forEach((visit, index) => {
    const last = index === visits.length - 1;
    const end =
      visit.departedAt ??
      (last && job.status === "arrived" ? now : last && job.completedAt !== null ? job.completedAt : null);
    if (end !== null) total += Math.max(0, end - visit.arrivedAt);
  });
  return total;
}

export function jobStory(job: StoryJob, extras: JobStoryExtras | null, now: number): JobStory {
  const eta = isAhead(job.status) ? job.eta : null;
  const visits = visitsOf(job, extras);
  const lastVisit = visits.at(-1);
  return {
    eta,
    etaInMinutes: eta === null ? null : Math.max(0, Math.round((eta - now) / 60_000)),
    lateMinutes: extras?.lateMinutes ?? null,
    visits,
    onSiteMs: timeOnSite(job, visits, now),
    onSiteNow: job.status === "arrived" && lastVisit !== undefined && !lastVisit.departedAt,
  };
}
