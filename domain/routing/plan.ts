import { compile, type Instance, type RoutingProblem } from "./problem";
import { searchSteps } from "./search";
import { runToEnd, type Steps } from "./steps";

/**
 * Why a job is left out of the plan: no vehicle has every skill it asks for; it is larger than
 * every vehicle that has them; no such vehicle can reach it within its window and be back by the
 * end of its shift, even with nothing else to do; or the fleet's time and room are taken by the
 * other jobs.
 */
export type UnassignedReason = "missing_skills" | "too_large" | "unreachable_in_window" | "no_room_left";

export interface PlannedStop {
  jobId: string;
  /** When the vehicle gets there, and when the service starts (later when it came early). */
  arrival: number;
  start: number;
}

export interface PlannedRoute {
  vehicleId: string;
  /** When the vehicle leaves its start: as late as lets it reach the first stop at its start. */
  departure: number;
  returnAt: number;
  stops: PlannedStop[];
  travelTime: number;
  distance: number;
}

export interface Plan {
  routes: PlannedRoute[];
  unassigned: { jobId: string; reason: UnassignedReason }[];
  travelTime: number;
  distance: number;
  iterations: number;
}

export interface PlanOptions {
  seed?: number;
  /** The search's budget in milliseconds (default 1000) and in iterations (default none). */
  timeLimitMs?: number;
  maxIterations?: number;
  /** The clock the time budget is read on (default Date.now). */
  now?: () => number;
}

/**
 * Plans a day (issue 54, docs/decisions/0070): routes that keep every window, shift, capacity and
 * skill, with as few vehicles as it finds, then the least travel time, then the least distance.
 * The same problem, seed and iteration cap give the same plan; a time budget that ends the search
 * first makes the plan depend on the machine's speed.
 */
export const planRoutes = (problem: RoutingProblem, options: PlanOptions = {}): Plan =>
  runToEnd(planRoutesSteps(problem, options));

/** The same plan in steps (./steps.ts), for a driver that hands the thread back between them. */
export function* planRoutesSteps(problem: RoutingProblem, options: PlanOptions = {}): Steps<Plan> {
  const now = options.now ?? Date.now;
  const started = now();
  const instance = compile(problem);
  const reasons = problem.jobs.map((_, job) => reasonAlone(instance, job));
  const plannable = reasons.flatMap((reason, job) => (reason ? [] : [job]));
  const found = yield* searchSteps(instance, plannable, {
    seed: options.seed ?? 1,
    maxIterations: options.maxIterations ?? Infinity,
    timeLimitMs: options.timeLimitMs ?? (options.maxIterations ? Infinity : 1000),
    now,
    started,
  });
  for (const job of found.absent) reasons[job] = "no_room_left";
  const routes = found.routes.flatMap((route, r) => (route.length ? [describeRoute(problem, instance, r, route)] : []));
  return {
    routes,
    unassigned: reasons.flatMap((reason, job) => (reason ? [{ jobId: problem.jobs[job]!.id, reason }] : [])),
    travelTime: routes.reduce((sum, route) => sum + route.travelTime, 0),
    distance: routes.reduce((sum, route) => sum + route.distance, 0),
    iterations: found.iterations,
  };
}

/** Why no vehicle could serve this job even as its only one (null: some vehicle can). */
function reasonAlone(p: Instance, job: number): UnassignedReason | null {
  let skilled = false;
  let large = false;
  for (let r = 0; r < p.vehicles; r++) {
    if (p.allowed && !p.allowed[r * p.jobs + job]) continue;
    skilled = true;
    if (p.size[job]! > p.capacity[r]!) continue;
    large = true;
    const at = p.location[job]!;
    const begin = Math.max(p.shiftStart[r]! + p.time[p.start[r]! * p.places + at]!, p.ready[job]!);
    const back = begin + p.service[job]! + p.time[at * p.places + p.end[r]!]!;
    if (begin <= p.due[job]! && p.ready[job]! <= p.due[job]! && back <= p.shiftEnd[r]!) return null;
  }
  return !skilled ? "missing_skills" : !large ? "too_large" : "unreachable_in_window";
}

function describeRoute(problem: RoutingProblem, p: Instance, r: number, route: readonly number[]): PlannedRoute {
  const at = (from: number, to: number) => from * p.places + to;
  let place = p.start[r]!;
  const first = route[0]!;
  const toFirst = p.time[at(place, p.location[first]!)]!;
  const departure = Math.max(p.shiftStart[r]!, p.ready[first]! - toFirst);
  let clock = departure;
  let travelTime = 0;
  let distance = 0;
  const stops = route.map((job) => {
    const to = p.location[job]!;
    const arrival = clock + p.time[at(place, to)]!;
    const start = Math.max(arrival, p.ready[job]!);
    travelTime += p.time[at(place, to)]!;
    distance += p.distance[at(place, to)]!;
    clock = start + p.service[job]!;
    place = to;
    return { jobId: problem.jobs[job]!.id, arrival, start };
  });
  travelTime += p.time[at(place, p.end[r]!)]!;
  distance += p.distance[at(place, p.end[r]!)]!;
  const returnAt = clock + p.time[at(place, p.end[r]!)]!;
  return { vehicleId: problem.vehicles[r]!.id, departure, returnAt, stops, travelTime, distance };
}
