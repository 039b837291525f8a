import type { Instance } from "./problem";
import { below, seededRandom, type Random } from "./random";
import { recreate, recreateSteps } from "./recreate";
import { ruin } from "./ruin";
import { Solution } from "./solution";
import { runToEnd, type Steps } from "./steps";

export interface SearchLimits {
  seed: number;
  /** The search stops at whichever comes first; only the iteration cap keeps a run reproducible. */
  maxIterations: number;
  timeLimitMs: number;
  now: () => number;
  /** When the budget began (the problem's compilation counts in it). */
  started: number;
}

export interface SearchResult {
  routes: number[][];
  absent: number[];
  iterations: number;
}

/**
 * Iterations between two stops of the search's steps: about 10 to 20 ms of a 500-job day on this
 * machine (an iteration is 0.5 to 1.25 ms there), so a request waiting behind a plan waits that long.
 */
const ITERATIONS_PER_STEP = 16;

/** Jobs the first plan inserts between two stops: about as long as a step of the search. */
const JOBS_PER_FIRST_STEP = 25;

/** The share of the run given to taking vehicles out before the rest goes to shortening routes. */
const FLEET_SHARE = 0.4;
/** Annealing temperatures, as multiples of an average leg of the first plan (SISR's 100 and 1 on Solomon's grid are about 10 and 0.1 of one). */
const START_TEMPERATURE = 10;
const END_TEMPERATURE = 0.1;

/**
 * SISR's two phases (docs/decisions/0070): a greedy first plan; then fewer vehicles, by taking a
 * route out and ruining and recreating until its jobs fit elsewhere (guided by how long each job
 * has been left out); then shorter routes, by ruin and recreate under simulated annealing with the
 * fleet held at its size.
 */
export const search = (instance: Instance, plannable: readonly number[], limits: SearchLimits): SearchResult =>
  runToEnd(searchSteps(instance, plannable, limits));

/** The search in steps (./steps.ts): the same plan, handing the thread back every few iterations. */
export function* searchSteps(
  instance: Instance,
  plannable: readonly number[],
  limits: SearchLimits,
): Steps<SearchResult> {
  const random = seededRandom(limits.seed);
  const s = new Solution(instance, plannable);
  const started = limits.started;
  let iterations = 0;
  const progress = () =>
    Math.max(iterations / limits.maxIterations, (limits.now() - started) / Math.max(1, limits.timeLimitMs));
  s.absent = plannable.slice();
  yield* recreateSteps(s, random, instance.vehicles, 0, JOBS_PER_FIRST_STEP);
  const step = () => ++iterations % ITERATIONS_PER_STEP === 0;
  yield;
  const fleet = yield* minimiseFleet(s, random, () => progress() < FLEET_SHARE, step);
  s.restore(fleet);
  const averageLeg = s.cost / Math.max(1, plannable.length + s.usedVehicles());
  const routes = yield* anneal(s, random, averageLeg, () => progress(), step);
  s.restore(routes);
  return { routes, absent: s.absent, iterations };
}

/** A seed for the ruin: any job, or (while some are out) half the time one of those left out. */
function seedJob(s: Solution, random: Random): number {
  if (s.absent.length && random() < 0.5) return s.absent[below(random, s.absent.length)]!;
  return s.plannable[below(random, s.plannable.length)]!;
}

/**
 * SISR's fleet minimisation: with one route fewer allowed, a ruin and recreate is kept when it
 * leaves fewer jobs out, or jobs that have been out less often (each left-out job's count of
 * absences rises every iteration, so the search turns to the jobs that keep failing).
 * Returns the plan with the fewest jobs out, then the fewest vehicles.
 */
function* minimiseFleet(s: Solution, random: Random, going: () => boolean, step: () => boolean): Steps<number[][]> {
  const absences = new Float64Array(s.instance.jobs);
  const sumOf = (jobs: readonly number[]) => jobs.reduce((sum, job) => sum + absences[job]!, 0);
  let best = s.snapshot();
  let bestOut = s.absent.length;
  let limit = s.usedVehicles();
  const floor = vehicleFloor(s);
  if (!bestOut && limit > floor) limit = removeRoute(s, random);
  while (s.absent.length && going()) {
    if (step()) yield;
    const before = s.absent.length;
    const beforeSum = sumOf(s.absent);
    s.begin();
    ruin(s, random, seedJob(s, random));
    recreate(s, random, limit);
    if (s.absent.length >= before && sumOf(s.absent) >= beforeSum) s.rollback();
    for (const job of s.absent) absences[job] = absences[job]! + 1;
    if (s.absent.length < bestOut || !s.absent.length) {
      best = s.snapshot();
      bestOut = s.absent.length;
      if (!bestOut && s.usedVehicles() > floor) limit = removeRoute(s, random);
    }
  }
  return best;
}

/** Takes the shorter of two routes drawn at random out of the plan; returns the vehicles left out. */
function removeRoute(s: Solution, random: Random): number {
  const used = s.routes.flatMap((route, r) => (route.length ? [r] : []));
  const a = used[below(random, used.length)]!;
  const b = used[below(random, used.length)]!;
  const r = s.routes[a]!.length <= s.routes[b]!.length ? a : b;
  s.absent.push(...s.routes[r]!);
  for (const job of s.routes[r]!) s.routeOf[job] = -1;
  s.routes[r] = [];
  s.refresh(r);
  return used.length - 1;
}

/** No fewer vehicles can carry the load: the largest capacities first. */
function vehicleFloor(s: Solution): number {
  const p = s.instance;
  let load = s.plannable.reduce((sum, job) => sum + p.size[job]!, 0);
  const capacities = Array.from(p.capacity).sort((a, b) => b - a);
  let vehicles = 0;
  for (const capacity of capacities) {
    if (load <= 0) break;
    load -= capacity;
    vehicles++;
  }
  return vehicles;
}

/** SISR's distance phase: ruin and recreate under simulated annealing, never more jobs out. */
function* anneal(
  s: Solution,
  random: Random,
  averageLeg: number,
  progress: () => number,
  step: () => boolean,
): Steps<number[][]> {
  const begun = progress();
  const out = s.absent.length;
  const limit = s.usedVehicles();
  let best = s.snapshot();
  let bestKey = [out, limit, s.cost];
  let current = s.cost;
  const hot = START_TEMPERATURE * averageLeg;
  const cold = END_TEMPERATURE * averageLeg;
  for (let done = begun; done < 1; done = progress()) {
    if (step()) yield;
    const temperature = hot * Math.pow(cold / hot, (done - begun) / Math.max(1e-9, 1 - begun));
    s.begin();
    ruin(s, random, seedJob(s, random));
    recreate(s, random, limit);
    if (s.absent.length > out || s.cost >= current - temperature * Math.log(random())) {
      s.rollback();
      continue;
    }
    current = s.cost;
    const key = [s.absent.length, s.usedVehicles(), s.cost];
    if (isBetter(key, bestKey)) {
      best = s.snapshot();
      bestKey = key;
    }
  }
  return best;
}

/** Fewer jobs out, then fewer vehicles, then a lower cost. */
const isBetter = (a: number[], b: number[]) => (a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!) < 0;
