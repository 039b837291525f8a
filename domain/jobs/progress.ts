import { distanceMetres } from "../../shared/geo";
import { estimateArrivals, isLate } from "./eta";
import { isOpen, STATUS_RANK, type JobProgress, type JobStatus, type PlannedJob } from "./plan";
import { advanceTravel, initialTravel, recentSpeed, type TravelFix, type TravelState } from "./travel";

/**
 * A vehicle's jobs of the day, followed fix by fix (docs/decisions/0055): state in, fix in ->
 * state out, the jobs' changed progress out. Each transition is stamped with the fix's time:
 * - en_route: the first open stop, once the vehicle has moved today and is at no stop (it started
 *   its day, or left the previous stop);
 * - arrived: inside the stop's radius, slow or for a minute (stamped with the first fix inside);
 * - completed: the first fix clearly outside the radius (by more than its accuracy) after the
 *   job's expected duration there (leaving earlier: see stayOrLeave);
 * - skipped: the vehicle arrived at a later stop first (it may still arrive there later).
 * ETAs (domain/jobs/eta.ts) for the stops not reached yet, late when one passes its window's end.
 * A job's progress is written (`changed`) when its status moves, when late flips, or when its ETA
 * moves by ETA_STEP_MS or more since last written: not on every fix (10,000 vehicles at 5 s).
 */
export const ETA_STEP_MS = 60_000;
/** A fix's accuracy, as a margin for leaving, within these bounds (as places do: domain/places). */
const MIN_MARGIN_M = 10;
const MAX_MARGIN_M = 250;
const MOVING_MPS = 1;
/** Inside a stop's radius at most this fast (m/s, 9 km/h), or for CONFIRM_MS, is there; faster is driving past. */
const SLOW_MPS = 2.5;
const CONFIRM_MS = 60_000;

export interface JobsState {
  /** The local day this state is about; a new day starts afresh (the road ratio is kept). */
  day: string;
  last: TravelFix | null;
  /** The vehicle has moved today. */
  started: boolean;
  travel: TravelState;
  /** Each job's progress as last written. */
  written: Record<string, JobProgress>;
  /** Stops whose radius the vehicle is in without having arrived yet: since when (the arrival's stamp once it counts). */
  entered: Record<string, number>;
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
    entered: {},
  };
}

/**
 * The job as known now: its row and this vehicle's own view, the further along of the two (the
 * driver's "arrived" or "done", a cancellation, win over an older view; the vehicle's newer one
 * over a row the object has not reloaded).
 */
function current(job: PlannedJob, written: Record<string, JobProgress>): PlannedJob {
  const mine = written[job.id];
  return mine && STATUS_RANK[mine.status] >= STATUS_RANK[job.status] ? { ...job, ...mine } : job;
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
  const speed = fix.speed ?? (gap ? (step / gap) * 1000 : 0);
  const started = state.started || speed > MOVING_MPS;
  const transitions: JobTransition[] = [];
  const entered = { ...(state.entered ?? {}) };
  const after = detect(before, { fix, speed, started, entered, transitions });
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
  return { state: { day, last, started, travel, written, entered }, changed, transitions };
}

interface Detection {
  fix: JobFix;
  /** m/s: the fix's, or its step's */
  speed: number;
  started: boolean;
  entered: Record<string, number>;
  transitions: JobTransition[];
}

/** Arrivals, departures, skips and the next stop's start, on this fix. */
function detect(jobs: PlannedJob[], d: Detection): PlannedJob[] {
  const { fix, transitions } = d;
  const margin = Math.min(MAX_MARGIN_M, Math.max(MIN_MARGIN_M, fix.accuracy ?? 0));
  let reached = -Infinity;
  const next = jobs.map((job): PlannedJob => {
    if (!isOpen(job)) return job;
    const metres = distanceMetres(job, fix);
    if (job.status === "arrived") return stayOrLeave(job, metres <= job.radiusMeters + margin, fix.time, transitions);
    const arrivedAt = arrival(job, metres, d);
    if (arrivedAt === null) return job;
    reached = Math.max(reached, job.sequence);
    transitions.push({ jobId: job.id, kind: "arrived", at: arrivedAt });
    return { ...job, status: "arrived", arrivedAt, departedAt: null, enRouteAt: job.enRouteAt ?? arrivedAt };
  });
  const checked = next.map((job): PlannedJob => {
    if (job.sequence >= reached || !notReached(job)) return job;
    transitions.push({ jobId: job.id, kind: "skipped", at: fix.time });
    return { ...job, status: "skipped" };
  });
  const first = checked.findIndex(notReached);
  const upNext = checked[first];
  if (d.started && !checked.some(isThere) && upNext?.status === "scheduled") {
    transitions.push({ jobId: upNext.id, kind: "en_route", at: fix.time });
    checked[first] = { ...upNext, status: "en_route", enRouteAt: fix.time };
  }
  return checked;
}

/**
 * When the vehicle arrived at a stop it had not, or null: inside the radius and slow, or inside
 * for CONFIRM_MS, stamped with the first fix inside. A vehicle driving through a stop's radius
 * (a later stop on its way) has not arrived there.
 */
function arrival(job: PlannedJob, metres: number, d: Detection): number | null {
  if (metres > job.radiusMeters) {
    delete d.entered[job.id];
    return null;
  }
  const since = d.entered[job.id] ?? d.fix.time;
  if (d.speed > SLOW_MPS && d.fix.time - since < CONFIRM_MS) {
    d.entered[job.id] = since;
    return null;
  }
  delete d.entered[job.id];
  return since;
}

const notReached = (job: PlannedJob) => job.status === "scheduled" || job.status === "en_route";
/** At the stop now: arrived and not left. */
const isThere = (job: PlannedJob) => job.status === "arrived" && job.departedAt === null;

/**
 * An arrived job on a fix: still there (or back), or gone: completed when it leaves after its
 * expected duration; leaving earlier, it stays arrived with its departure, for the driver to mark
 * done (shared/jobs.ts: an arrived job is never en route again).
 */
function stayOrLeave(job: PlannedJob, near: boolean, at: number, transitions: JobTransition[]): PlannedJob {
  if (near) return job.departedAt === null ? job : { ...job, departedAt: null };
  if (job.departedAt !== null) return job;
  if (at - (job.arrivedAt ?? at) < job.durationMinutes * 60_000) return { ...job, departedAt: at };
  transitions.push({ jobId: job.id, kind: "completed", at });
  return { ...job, status: "completed", departedAt: at, completedAt: at };
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
