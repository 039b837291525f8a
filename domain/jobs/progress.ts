import { distanceMetres } from "../../shared/units/geo";
import { DEFAULT_TIME_ZONE, offsetMinutes } from "../../shared/units/time-zone";
import { DEFAULT_HOUR_SHAPE, measuredTravel, type HourShape } from "../routing/street-travel";
import { jobVisits, timeOnSite, type JobVisit } from "../../shared/jobs/jobs";
import { metresOutside } from "./area";
import { closingSpeed, CLOSING_WINDOW_MS, estimateArrivals, isLate } from "./eta";
import { isOpen, STATUS_RANK, type JobProgress, type JobStatus, type PlannedJob } from "./planned-job";
import { advanceTravel, initialTravel, recentSpeed, type TravelFix, type TravelState } from "./travel";

/**
 * A vehicle's jobs of the day, followed fix by fix (docs/decisions/0055): state in, fix in ->
 * state out, the jobs' changed progress out. A stop's "radius" below is its edge: the radius around
 * its point, or the outline of the place it is at, polygon or circle (domain/jobs/area.ts, ADR 0062).
 * Each transition is stamped with the fix's time:
 * - en_route: the first stop not reached, once the vehicle has moved today and is at no stop (it
 *   started its day, or left the previous stop); only that one: a stop that is no longer it (the
 *   day reordered, a stop reached out of order, the vehicle at a stop) is scheduled again, so a
 *   vehicle has at most one stop en route whatever the planner changes (ADR 0083);
 * - arrived: inside the radius of the stop it is heading for and slow, or of another for three
 *   minutes (stamped with the first fix inside); each arrival opens a visit, and a vehicle back at
 *   a stop it had left (as it would arrive there) opens another;
 * - completed: the first fix clearly outside the radius (by more than its accuracy) once its
 *   visits add up to the job's expected duration (leaving earlier: see stayOrLeave);
 * - skipped: the vehicle arrived at a later stop first (it may still arrive there later).
 * ETAs (domain/jobs/eta.ts) for the stops not reached yet, late when one passes its window's end.
 * A job's progress is written (`changed`) when its status moves, when late flips, or when its ETA
 * moves by ETA_STEP_MS or more since last written (less when the stop is close: etaStep): not on
 * every fix (10,000 vehicles at 5 s).
 */
export const ETA_STEP_MS = 60_000;
/** The least ETA move written, however close the stop. */
const MIN_ETA_STEP_MS = 10_000;
const DAY_MS = 86_400_000;
/** Close to a stop, an ETA move of this share of the time left is written (a minute off is half of two). */
const ETA_STEP_SHARE = 0.15;
/** The ETA move worth writing with `leftMs` to go: ETA_STEP_MS, or less in the last minutes. */
export const etaStep = (leftMs: number) => Math.min(ETA_STEP_MS, Math.max(MIN_ETA_STEP_MS, ETA_STEP_SHARE * leftMs));
/** How often ETAs are worked out while no stop's status moves (late is flagged within this). */
export const ETA_EVERY_MS = 15_000;
/** A fix's accuracy, as a margin for leaving, within these bounds (as places do: domain/places). */
const MIN_MARGIN_M = 10;
const MAX_MARGIN_M = 250;
const MOVING_MPS = 1;
/** Inside the next stop's radius at most this fast (m/s, 9 km/h) is there; faster is driving past. */
const SLOW_MPS = 2.5;
/** Inside another stop's radius this long is there (see arrival). */
const CONFIRM_MS = 3 * 60_000;

export interface JobsState {
  /** The local day this state is about; a new day starts afresh (the road ratio is kept). */
  day: string;
  last: TravelFix | null;
  /** The vehicle has moved today. */
  started: boolean;
  travel: TravelState;
  /** Each job's progress as last written. */
  written: Record<string, JobProgress>;
  /**
   * The first fix across a stop's edge not yet counted: into the radius of a stop not arrived at
   * (the arrival's stamp once it counts), out of an arrived one's (the departure's).
   */
  entered: Record<string, number>;
  /** When ETAs were last worked out (null: not yet today). */
  etaAt: number | null;
  /** When `day` starts and ends (set by the module: working the day out of a time costs more than the rest). */
  dayBounds?: [number, number];
  /**
   * The straight distance to the stop the vehicle heads for, at each ETA worked out over the last
   * CLOSING_WINDOW_MS ([time, metres]): how it is closing on it (domain/jobs/eta.ts closingSpeed).
   */
  approach?: { jobId: string; samples: [number, number][] };
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
    etaAt: null,
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

/**
 * Nothing can change on this fix but the vehicle's travel: no ETA due, no edge crossed pending,
 * not at a stop, and outside every open stop's radius (read without building the merged jobs).
 */
function nothingNear(state: JobsState, plan: readonly PlannedJob[], fix: JobFix): boolean {
  if (state.etaAt === null || fix.time - state.etaAt >= ETA_EVERY_MS) return false;
  for (const _ in state.entered) return false;
  for (const job of plan) {
    const mine = state.written[job.id];
    const status = mine && STATUS_RANK[mine.status] >= STATUS_RANK[job.status] ? mine.status : job.status;
    if (status === "arrived" || (isOpen({ status }) && metresOutside(job, fix, MAX_MARGIN_M) <= 0)) return false;
  }
  return true;
}

export interface AdvanceOptions {
  /** A fix replayed: every job's progress is worked out and written. */
  replay?: boolean;
  /** The workspace's zone: its local hours shape the ETA's later legs (domain/routing/street-travel.ts). */
  timeZone?: string;
  /** The workspace's shape of a day, learned from its driving (docs/decisions/0097); the default when absent. */
  hourShape?: HourShape;
}

/** Folds one in-order fix of the vehicle against its day's plan (in sequence order). */
export function advanceJobs(
  given: JobsState,
  fix: JobFix,
  day: string,
  plan: readonly PlannedJob[],
  { replay = false, timeZone = DEFAULT_TIME_ZONE, hourShape = DEFAULT_HOUR_SHAPE }: AdvanceOptions = {},
): JobsStep {
  const state = given.day === day ? given : initialJobsState(day, given);
  if (state.last && fix.time <= state.last.time) return { state: given, changed: [], transitions: [] };
  const step = state.last ? distanceMetres(state.last, fix) : 0;
  const gap = state.last ? fix.time - state.last.time : 0;
  const speed = fix.speed ?? (gap ? (step / gap) * 1000 : 0);
  const started = state.started || speed > MOVING_MPS;
  if (!replay && started === state.started && nothingNear(state, plan, fix)) {
    // Between stops with no ETA due (most fixes of a day): only the vehicle's travel moves.
    const travel = advanceTravel(state.travel, state.last, fix, false);
    const last = { time: fix.time, latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed };
    return { state: { ...state, last, travel }, changed: [], transitions: [] };
  }
  const before = plan.map((job) => current(job, state.written));
  const transitions: JobTransition[] = [];
  const entered = { ...state.entered };
  const after = detect(before, { fix, speed, started, entered, transitions });
  const travel = advanceTravel(state.travel, state.last, fix, after.some(isThere));
  const last = { time: fix.time, latitude: fix.latitude, longitude: fix.longitude, speed: fix.speed };
  const kept = { day, last, started, travel, entered, ...(state.dayBounds && { dayBounds: state.dayBounds }) };
  // ETAs are worked out every ETA_EVERY_MS (or when a stop's status moved): most fixes change nothing worth writing.
  const moved = after.some((job, i) => job !== before[i]);
  if (!moved && !replay && state.etaAt !== null && fix.time - state.etaAt < ETA_EVERY_MS) {
    const approach = state.approach && { approach: state.approach };
    return { state: { ...kept, written: state.written, etaAt: state.etaAt, ...approach }, changed: [], transitions };
  }
  const approach = approaching(state.approach, after, fix);
  const closing = approach && closingSpeed(approach.samples, speed);
  const offset = zoneOffset(day, state.dayBounds, fix.time, timeZone);
  const estimated = withEtas(after, fix, travel, { offset, shape: hourShape }, closing);
  estimated.forEach((job, i) => {
    if (job.late && !before[i]!.late && isOpen(job)) transitions.push({ jobId: job.id, kind: "late", at: fix.time });
  });
  const { changed, written } = worthWritten(estimated, before, state.written, replay, fix.time);
  return { state: { ...kept, written, etaAt: fix.time, ...(approach && { approach }) }, changed, transitions };
}

/** The approach to the stop the vehicle heads for (none while it is at one), with this fix's distance. */
function approaching(was: JobsState["approach"], jobs: PlannedJob[], fix: JobFix): JobsState["approach"] {
  const next = jobs.some(isThere) ? undefined : jobs.find(notReached);
  if (!next) return undefined;
  const kept = was?.jobId === next.id ? was.samples.filter(([t]) => fix.time - t <= CLOSING_WINDOW_MS) : [];
  return { jobId: next.id, samples: [...kept, [fix.time, Math.round(distanceMetres(fix, next))]] };
}

/** The jobs whose progress is worth writing, and each job's progress as last written. */
function worthWritten(
  jobs: PlannedJob[],
  before: PlannedJob[],
  was: Record<string, JobProgress>,
  replay: boolean,
  now: number,
) {
  const changed: JobsStep["changed"] = [];
  const written: Record<string, JobProgress> = {};
  jobs.forEach((job, i) => {
    const write = replay || worthWriting(before[i]!, job, now);
    const progress = write ? progressOf(job) : was[job.id];
    if (write) changed.push({ id: job.id, ...progress! });
    if (progress) written[job.id] = progress;
  });
  return { changed, written };
}

/** Not reached yet: the stops with an ETA, and the one the vehicle heads for first. */
function notReached(job: PlannedJob): boolean {
  return job.status === "scheduled" || job.status === "en_route";
}

/** At the stop now: arrived and not left. */
function isThere(job: PlannedJob): boolean {
  return job.status === "arrived" && job.departedAt === null;
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
  const upcoming = jobs.find(notReached)?.id;
  const next = jobs.map((job): PlannedJob => {
    if (!isOpen(job)) return job;
    const outside = metresOutside(job, fix, MAX_MARGIN_M);
    if (job.status === "arrived") return stayOrLeave(job, outside, margin, d);
    const arrivedAt = arrival(job, outside, margin, job.id === upcoming, d);
    if (arrivedAt === null) return job;
    reached = Math.max(reached, job.sequence);
    transitions.push({ jobId: job.id, kind: "arrived", at: arrivedAt });
    const visits = [...jobVisits(job), { arrivedAt, departedAt: null }];
    return {
      ...job,
      status: "arrived",
      arrivedAt: job.arrivedAt ?? arrivedAt,
      departedAt: null,
      enRouteAt: job.enRouteAt ?? arrivedAt,
      visits,
    };
  });
  const checked = next.map((job): PlannedJob => {
    if (job.sequence >= reached || !notReached(job)) return job;
    transitions.push({ jobId: job.id, kind: "skipped", at: fix.time });
    return { ...job, status: "skipped" };
  });
  // The one stop en route: the first not reached, while the vehicle drives (started, at no stop).
  const heading = d.started && !checked.some(isThere) ? checked.findIndex(notReached) : -1;
  return checked.map((job, i) => {
    if (i === heading && job.status === "scheduled") {
      transitions.push({ jobId: job.id, kind: "en_route", at: fix.time });
      return { ...job, status: "en_route", enRouteAt: fix.time };
    }
    if (i !== heading && job.status === "en_route") return { ...job, status: "scheduled", enRouteAt: null };
    return job;
  });
}

/**
 * When the vehicle arrived at a stop it had not, or null, stamped with the first fix inside the
 * radius: at the stop it is heading for, once it is slow there; at any other (out of order, or
 * one it skipped), once it has stayed CONFIRM_MS, longer than a red light. So a vehicle driving
 * through a later stop's radius, or waiting at a light in it, has not arrived there. A fix just
 * outside (within its accuracy) keeps the first one's time: GPS noise at the edge is not leaving.
 */
function arrival(job: PlannedJob, outside: number, margin: number, upcoming: boolean, d: Detection): number | null {
  if (outside > 0) {
    if (outside > margin) delete d.entered[job.id];
    return null;
  }
  const since = d.entered[job.id] ?? d.fix.time;
  if ((!upcoming || d.speed > SLOW_MPS) && d.fix.time - since < CONFIRM_MS) {
    d.entered[job.id] = since;
    return null;
  }
  delete d.entered[job.id];
  return since;
}

/**
 * An arrived job on a fix: still there, or gone once a fix is clearly outside (beyond the radius
 * by more than its accuracy), stamped with the first fix outside the radius, which closes its
 * visit. It is completed when it leaves with its visits adding up to its expected duration;
 * leaving earlier, it stays arrived with its departure, for the driver to mark done
 * (shared/jobs/jobs.ts: an arrived job is never en route again). Back at a stop it had left
 * (counted as an arrival at the stop it heads for would be: slow inside, or staying), a new visit
 * opens from the first fix inside: the first visit keeps its departure, so the time away is not
 * time on site.
 */
function stayOrLeave(job: PlannedJob, outside: number, margin: number, d: Detection): PlannedJob {
  if (job.departedAt !== null) {
    const back = arrival(job, outside, margin, true, d);
    if (back === null) return job;
    return { ...job, departedAt: null, visits: [...jobVisits(job), { arrivedAt: back, departedAt: null }] };
  }
  if (outside <= 0) {
    delete d.entered[job.id];
    return job;
  }
  const at = (d.entered[job.id] ??= d.fix.time);
  if (outside <= margin) return job;
  delete d.entered[job.id];
  const visits = leftAt(jobVisits(job), at);
  if (timeOnSite(visits, at) < job.durationMinutes * 60_000) return { ...job, departedAt: at, visits };
  d.transitions.push({ jobId: job.id, kind: "completed", at });
  return { ...job, status: "completed", departedAt: at, completedAt: at, visits };
}

/** The visits with the open one (the last) closed at `at`. */
function leftAt(visits: JobVisit[], at: number): JobVisit[] {
  const last = visits.at(-1);
  if (!last || last.departedAt !== null) return visits;
  return [...visits.slice(0, -1), { ...last, departedAt: at }];
}

/** Every stop not reached gets an ETA; late is judged on the ETA, or on the arrival once there. */
function withEtas(
  jobs: PlannedJob[],
  fix: JobFix,
  travel: TravelState,
  clock: LocalClock,
  closing: number | null = null,
): PlannedJob[] {
  const ahead = jobs.filter(notReached);
  const at = jobs.filter(isThere).at(-1) ?? null;
  const etas = ahead.length ? vehicleEtas(fix, travel, clock, at, ahead, closing) : new Map<string, number>();
  return jobs.map((job) => {
    const eta = etas.get(job.id) ?? null;
    if (eta !== null) return { ...job, eta, late: isLate(eta, job.windowEnd) };
    if (job.status === "arrived" || job.status === "completed")
      return { ...job, eta: null, late: isLate(job.arrivedAt, job.windowEnd) };
    return { ...job, eta: null };
  });
}

/**
 * The zone's offset from UTC (ms) at `time` on `day`. From the day's bounds when the day is 24
 * hours long (no change of offset in it): asking Intl costs about 30 µs, more than the rest of a
 * fix's fold. Else (the bounds not known yet, or a daylight-saving day) Intl is asked.
 */
function zoneOffset(day: string, bounds: [number, number] | undefined, time: number, timeZone: string): number {
  if (timeZone === DEFAULT_TIME_ZONE) return 0;
  if (bounds && bounds[1] - bounds[0] === DAY_MS) return Date.parse(`${day}T00:00:00Z`) - bounds[0];
  return offsetMinutes(time, timeZone) * 60_000;
}

/** The workspace's clock for the ETA: its zone's offset now (ms) and its learned shape of a day. */
interface LocalClock {
  offset: number;
  shape: HourShape;
}

/**
 * The ETAs of the stops ahead, each leg by the vehicle's own travel (its recent speed and road
 * ratio, measuredTravel, on the workspace's shape of a day) at the local hour it departs; the
 * zone's offset now is taken for the next hours' too (a change of offset falls at night).
 */
function vehicleEtas(
  fix: JobFix,
  travel: TravelState,
  { offset, shape }: LocalClock,
  at: PlannedJob | null,
  ahead: PlannedJob[],
  closing: number | null,
): Map<string, number> {
  const hourAt = (time: number) => ((time + offset) / 3_600_000) % 24;
  const legs = measuredTravel(recentSpeed(travel), travel.roadRatio, hourAt(fix.time), shape);
  return estimateArrivals({ now: fix.time, position: fix, travel: legs, hourAt, at, ahead, closing });
}

const progressOf = ({
  status,
  enRouteAt,
  arrivedAt,
  departedAt,
  completedAt,
  eta,
  late,
  visits,
}: JobProgress): JobProgress => ({
  status,
  enRouteAt,
  arrivedAt,
  departedAt,
  completedAt,
  eta,
  late,
  visits,
});

/** A status or stamp that moved, late that flipped, an ETA that appeared, went, or moved by etaStep. */
function worthWriting(was: JobProgress, now: JobProgress, time: number): boolean {
  if (was.status !== now.status || was.late !== now.late) return true;
  if (was.enRouteAt !== now.enRouteAt || was.arrivedAt !== now.arrivedAt) return true;
  if (was.departedAt !== now.departedAt || was.completedAt !== now.completedAt) return true;
  if (was.visits.length !== now.visits.length) return true;
  if ((was.eta === null) !== (now.eta === null)) return true;
  return was.eta !== null && now.eta !== null && Math.abs(now.eta - was.eta) >= etaStep(now.eta - time);
}
