import { distanceMetres } from "../../shared/geo";
import { estimateArrivals, isLate } from "./eta";
import { FINAL_STATUSES, isOpen, type JobProgress, type JobStatus, type PlannedJob } from "./plan";
import { advanceTravel, initialTravel, recentSpeed, type TravelFix, type TravelState } from "./travel";

/**
 * A vehicle's jobs of the day, followed fix by fix (docs/decisions/0055): state in, fix in ->
 * state out, the jobs' changed progress out. Each transition is stamped with the fix's time:
 * - en_route: the first open stop, once the vehicle has moved today and is at no stop (it started
 *   its day, or left the previous stop);
 * - arrived: a fix inside the stop's radius;
 * - completed: the first fix clearly outside the radius (by more than its accuracy) after the
 *   job's expected duration there (leaving earlier: see stayOrLeave);
 * - skipped: the vehicle arrived at a later stop first.
 * ETAs (domain/jobs/eta.ts) for the stops not reached yet, late when one passes its window's end.
 * A job's progress is written (`changed`) when its status moves, when late flips, or when its ETA
 * moves by ETA_STEP_MS or more since last written: not on every fix (10,000 vehicles at 5 s).
 */
export const ETA_STEP_MS = 60_000;
/** A fix's accuracy, as a margin for leaving, within these bounds (as places do: domain/places). */
const MIN_MARGIN_M = 10;
const MAX_MARGIN_M = 250;
const MOVING_MPS = 1;
/** In and out of a stop's radius quicker than this is driving past it, not a visit. */
export const DRIVE_BY_MS = 60_000;

export interface JobsState {
  /** The local day this state is about; a new day starts afresh (the road ratio is kept). */
  day: string;
  last: TravelFix | null;
  /** The vehicle has moved today. */
  started: boolean;
  travel: TravelState;
  /** Each job's progress as last written. */
  written: Record<string, JobProgress>;
}

export interface JobFix extends TravelFix {
  accuracy: number | null;
}

export type JobTransition = { jobId: string; kind: Exclude<JobStatus, "scheduled" | "cancelled"> | "late"; at: number };

export interface JobsStep {
  state: JobsState;
  /** Jobs whose progress is worth writing, with their whole progress. */
  changed: (JobProgress & { id: string })[];
  transitions: JobTransition[];
}

export function initialJobsState(day: string, previous?: JobsState): JobsState {
  return {
    day,
    last: previous?.last ?? null,
    started: false,
    travel: initialTravel(previous?.travel.roadRatio),
    written: {},
  };
}

/** The job as known now: a final status from its row wins (the driver's "done", a cancellation), else this vehicle's own view. */
function current(job: PlannedJob, written: Record<string, JobProgress>): PlannedJob {
  const mine = written[job.id];
  return mine && !FINAL_STATUSES.has(job.status) ? { ...job, ...mine } : job;
}

/** Folds one in-order fix of the vehicle against its day's plan (any order; sorted by sequence here). */
export function advanceJobs(
  given: JobsState,
  fix: JobFix,
  day: string,
  plan: readonly PlannedJob[],
  replay = false,
): JobsStep {
  const state = given.day === day ? given : initialJobsState(day, given);
  if (state.last && fix.time <= state.last.time) return { state: given, changed: [], transitions: [] };
  const before = [...plan].sort((a, b) => a.sequence - b.sequence).map((job) => current(job, state.written));
  const step = state.last ? distanceMetres(state.last, fix) : 0;
  const gap = state.last ? fix.time - state.last.time : 0;
  const started = state.started || (fix.speed ?? (gap ? (step / gap) * 1000 : 0)) > MOVING_MPS;
  const transitions: JobTransition[] = [];
  const after = detect(before, fix, started, transitions);
  const atStop = after.some(isThere);
  const travel = advanceTravel(state.travel, state.last, fix, atStop);
  const estimated = withEtas(after, fix, travel);
  const changed: JobsStep["changed"] = [];
  const written: Record<string, JobProgress> = {};
  estimated.forEach((job, i) => {
    const was = before[i]!;
    if (!was.late && job.late && isOpen(job)) transitions.push({ jobId: job.id, kind: "late", at: fix.time });
    const progress = progressOf(job);
    const write = replay || worthWriting(progressOf(was), progress);
    if (write) changed.push({ id: job.id, ...progress });
    const kept = write ? progress : state.written[job.id];
    if (kept) written[job.id] = kept;
  });
  const last = { time: fix.time, latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed };
  return { state: { day, last, started, travel, written }, changed, transitions };
}

/** Arrivals, departures, skips and the next stop's start, on this fix. */
function detect(jobs: PlannedJob[], fix: JobFix, started: boolean, transitions: JobTransition[]): PlannedJob[] {
  const margin = Math.min(MAX_MARGIN_M, Math.max(MIN_MARGIN_M, fix.accuracy ?? 0));
  let reached = -Infinity;
  const next = jobs.map((job): PlannedJob => {
    if (!isOpen(job)) return job;
    const metres = distanceMetres(job, fix);
    if (job.status === "arrived") return stayOrLeave(job, metres <= job.radiusMeters + margin, fix.time, transitions);
    if (metres > job.radiusMeters) return job;
    reached = Math.max(reached, job.sequence);
    transitions.push({ jobId: job.id, kind: "arrived", at: fix.time });
    return { ...job, status: "arrived", arrivedAt: fix.time, departedAt: null, enRouteAt: job.enRouteAt ?? fix.time };
  });
  const checked = next.map((job): PlannedJob => {
    if (job.sequence >= reached || !notReached(job)) return job;
    transitions.push({ jobId: job.id, kind: "skipped", at: fix.time });
    return { ...job, status: "skipped" };
  });
  const first = checked.findIndex(notReached);
  const upNext = checked[first];
  if (started && !checked.some(isThere) && upNext?.status === "scheduled") {
    transitions.push({ jobId: upNext.id, kind: "en_route", at: fix.time });
    checked[first] = { ...upNext, status: "en_route", enRouteAt: fix.time };
  }
  return checked;
}

const notReached = (job: PlannedJob) => job.status === "scheduled" || job.status === "en_route";
/** At the stop now: arrived and not left. */
const isThere = (job: PlannedJob) => job.status === "arrived" && job.departedAt === null;

/**
 * An arrived job on a fix: still there (or back), or left: completed after its expected duration;
 * a drive-through shorter than DRIVE_BY_MS was no visit (en route again); a visit between the two
 * left early, and stays arrived for the driver to mark done.
 */
function stayOrLeave(job: PlannedJob, near: boolean, at: number, transitions: JobTransition[]): PlannedJob {
  if (near) return job.departedAt === null ? job : { ...job, departedAt: null };
  if (job.departedAt !== null) return job;
  const stayed = at - (job.arrivedAt ?? at);
  if (stayed >= job.durationMinutes * 60_000) {
    transitions.push({ jobId: job.id, kind: "completed", at });
    return { ...job, status: "completed", departedAt: at, completedAt: at };
  }
  if (stayed < DRIVE_BY_MS) return { ...job, status: "en_route", arrivedAt: null };
  return { ...job, departedAt: at };
}

/** Every stop not reached gets an ETA; late is judged on the ETA, or on the arrival once there. */
function withEtas(jobs: PlannedJob[], fix: JobFix, travel: TravelState): PlannedJob[] {
  const ahead = jobs.filter(notReached);
  const at = jobs.filter(isThere).at(-1) ?? null;
  const etas = ahead.length
    ? estimateArrivals({
        now: fix.time,
        position: fix,
        speed: recentSpeed(travel),
        roadRatio: travel.roadRatio,
        at,
        ahead,
      })
    : new Map<string, number>();
  return jobs.map((job) => {
    const eta = etas.get(job.id) ?? null;
    if (eta !== null) return { ...job, eta, late: isLate(eta, job.windowEnd) };
    if (job.status === "arrived" || job.status === "completed")
      return { ...job, eta: null, late: isLate(job.arrivedAt, job.windowEnd) };
    return { ...job, eta: null };
  });
}

const progressOf = ({
  status,
  enRouteAt,
  arrivedAt,
  departedAt,
  completedAt,
  eta,
  late,
}: JobProgress): JobProgress => ({
  status,
  enRouteAt,
  arrivedAt,
  departedAt,
  completedAt,
  eta,
  late,
});

/** A status or stamp that moved, late that flipped, an ETA that appeared, went, or moved by ETA_STEP_MS. */
function worthWriting(was: JobProgress, now: JobProgress): boolean {
  if (was.status !== now.status || was.late !== now.late) return true;
  if (was.enRouteAt !== now.enRouteAt || was.arrivedAt !== now.arrivedAt) return true;
  if (was.departedAt !== now.departedAt || was.completedAt !== now.completedAt) return true;
  if ((was.eta === null) !== (now.eta === null)) return true;
  return was.eta !== null && now.eta !== null && Math.abs(now.eta - was.eta) >= ETA_STEP_MS;
}
