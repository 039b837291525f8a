import type { LatLon } from "../../shared/units/geo";
import { planRoutesSteps, type UnassignedReason } from "./plan";
import { runToEnd, type Steps } from "./steps";
import type { RoutingJob, RoutingProblem, RoutingVehicle } from "./problem";
import type { TravelTime } from "./street-travel";

/**
 * A workspace's day as the planner sees it (issue 54, docs/decisions/0076): its jobs and vehicles
 * turned into a RoutingProblem on street travel, planned, and the day as it is (before) and as
 * planned (after) measured alike. Times are seconds since the day's local midnight.
 */
export interface DayJob {
  id: string;
  point: LatLon;
  /** Seconds since local midnight; null: any time in the shift. */
  windowStart: number | null;
  windowEnd: number | null;
  serviceSeconds: number;
  size: number;
  /** Its vehicle now, and its place in that vehicle's day. */
  vehicleId: string | null;
  sequence: number;
}

export interface DayVehicle {
  id: string;
  capacity: number;
  /** Where the vehicle sets off from (its last done or en-route stop on a started day); null: anywhere. */
  start: LatLon | null;
  end: LatLon | null;
  shiftStart: number;
  shiftEnd: number;
}

export interface DayRequest {
  jobs: readonly DayJob[];
  vehicles: readonly DayVehicle[];
  /** Jobs already on a plan vehicle stay on it (ordered anew among its stops). */
  keepAssigned: boolean;
  travel: TravelTime;
  seed: number;
  maxIterations: number;
  timeLimitMs: number;
}

export interface DayStop {
  jobId: string;
  arrival: number;
  start: number;
}
export interface DayRoute {
  vehicleId: string;
  stops: DayStop[];
  distanceMeters: number;
  durationSeconds: number;
}
export interface DayTotals {
  /** The stops the day visits: a plan that leaves jobs out is shorter for it, not better. */
  stops: number;
  distanceMeters: number;
  durationSeconds: number;
  lateStops: number;
}
export interface DayPlan {
  routes: DayRoute[];
  unassigned: { jobId: string; reason: UnassignedReason }[];
  before: DayTotals;
  after: DayTotals;
  iterations: number;
}

/** Departures sampled over the shift: a leg's time is their mean (the planner's matrix is not time-dependent). */
const DEPARTURE_SAMPLES = 4;

/** Place 0 is "anywhere": no time and no distance to or from it (an open route's start or end). */
const ANYWHERE = 0;

interface Places {
  points: (LatLon | null)[];
  jobPlace: number[];
  startPlace: number[];
  endPlace: number[];
}

function placesOf(request: DayRequest): Places {
  const points: (LatLon | null)[] = [null];
  const add = (point: LatLon | null) => (point ? points.push(point) - 1 : ANYWHERE);
  const startPlace = request.vehicles.map((v) => add(v.start));
  const endPlace = request.vehicles.map((v) => add(v.end));
  const jobPlace = request.jobs.map((j) => add(j.point));
  return { points, jobPlace, startPlace, endPlace };
}

/** Time (mean over departures sampled across the widest shift) and distance between every two places. */
function travelMatrices(request: DayRequest, points: readonly (LatLon | null)[]) {
  const n = points.length;
  const time = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const distance = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const first = Math.min(...request.vehicles.map((v) => v.shiftStart));
  const last = Math.max(...request.vehicles.map((v) => v.shiftEnd));
  const hours = Array.from(
    { length: DEPARTURE_SAMPLES },
    (_, k) => (first + ((k + 0.5) * (last - first)) / DEPARTURE_SAMPLES) / 3600,
  );
  for (let a = 1; a < n; a++)
    for (let b = 1; b < n; b++) {
      if (a === b) continue;
      let seconds = 0;
      for (const hour of hours) {
        const leg = request.travel(points[a]!, points[b]!, hour);
        seconds += leg.seconds;
        distance[a]![b] = leg.meters;
      }
      time[a]![b] = seconds / hours.length;
    }
  return { time, distance };
}

/** A job kept on its vehicle asks for that vehicle as a skill only it has. */
const ownSkill = (vehicleId: string) => `vehicle:${vehicleId}`;

function routingProblem(request: DayRequest, places: Places): RoutingProblem {
  const planned = new Set(request.vehicles.map((v) => v.id));
  const jobs: RoutingJob[] = request.jobs.map((j, i) => {
    const kept = request.keepAssigned && j.vehicleId !== null && planned.has(j.vehicleId);
    return {
      id: j.id,
      location: places.jobPlace[i]!,
      windowStart: j.windowStart ?? 0,
      windowEnd: j.windowEnd ?? 24 * 3600,
      serviceTime: j.serviceSeconds,
      size: j.size,
      ...(kept && { skills: [ownSkill(j.vehicleId!)] }),
    };
  });
  const vehicles: RoutingVehicle[] = request.vehicles.map((v, r) => ({
    id: v.id,
    start: places.startPlace[r]!,
    end: places.endPlace[r]!,
    shiftStart: v.shiftStart,
    shiftEnd: v.shiftEnd,
    capacity: v.capacity,
    skills: [ownSkill(v.id)],
  }));
  return { jobs, vehicles, travel: travelMatrices(request, places.points) };
}

/** A vehicle's stops in an order, driven as the planner would: leave late enough to be at the first on time, wait when early. */
function driven(problem: RoutingProblem, r: number, order: readonly number[]): DayRoute & { late: number } {
  const { time, distance } = problem.travel as { time: number[][]; distance: number[][] };
  const vehicle = problem.vehicles[r]!;
  let place = vehicle.start;
  const head = order[0] === undefined ? null : problem.jobs[order[0]]!;
  const departure = head
    ? Math.max(vehicle.shiftStart, head.windowStart - time[place]![head.location]!)
    : vehicle.shiftStart;
  let clock = departure;
  let distanceMeters = 0;
  let late = 0;
  const stops = order.map((j) => {
    const job = problem.jobs[j]!;
    const arrival = clock + time[place]![job.location]!;
    const start = Math.max(arrival, job.windowStart);
    if (start > job.windowEnd) late++;
    distanceMeters += distance[place]![job.location]!;
    clock = start + job.serviceTime;
    place = job.location;
    return { jobId: job.id, arrival, start };
  });
  distanceMeters += distance[place]![vehicle.end]!;
  const back = clock + time[place]![vehicle.end]!;
  return { vehicleId: vehicle.id, stops, distanceMeters, durationSeconds: order.length ? back - departure : 0, late };
}

function totals(routes: readonly (DayRoute & { late: number })[]): DayTotals {
  return {
    stops: routes.reduce((s, r) => s + r.stops.length, 0),
    distanceMeters: routes.reduce((s, r) => s + r.distanceMeters, 0),
    durationSeconds: routes.reduce((s, r) => s + r.durationSeconds, 0),
    lateStops: routes.reduce((s, r) => s + r.late, 0),
  };
}

/** The day as it stands: each plan vehicle's jobs among those planned, in their order. */
function currentRoutes(request: DayRequest, problem: RoutingProblem) {
  return request.vehicles.map((v, r) => {
    const order = request.jobs
      .map((job, index) => ({ job, index }))
      .filter(({ job }) => job.vehicleId === v.id)
      .sort((a, b) => a.job.sequence - b.job.sequence)
      .map(({ index }) => index);
    return driven(problem, r, order);
  });
}

/** Plans the day and measures it before and after, on the same travel. */
export const planDay = (request: DayRequest): DayPlan => runToEnd(planDaySteps(request));

/** The same in steps (./steps.ts): the Worker runs it handing the thread back between them. */
export function* planDaySteps(request: DayRequest): Steps<DayPlan> {
  if (!request.vehicles.length)
    return {
      routes: [],
      unassigned: request.jobs.map((j) => ({ jobId: j.id, reason: "no_room_left" as const })),
      before: { stops: 0, distanceMeters: 0, durationSeconds: 0, lateStops: 0 },
      after: { stops: 0, distanceMeters: 0, durationSeconds: 0, lateStops: 0 },
      iterations: 0,
    };
  const problem = routingProblem(request, placesOf(request));
  const plan = yield* planRoutesSteps(problem, {
    seed: request.seed,
    maxIterations: request.maxIterations,
    timeLimitMs: request.timeLimitMs,
  });
  const jobIndex = new Map(request.jobs.map((j, i) => [j.id, i]));
  const vehicleIndex = new Map(request.vehicles.map((v, r) => [v.id, r]));
  const after = plan.routes.map((route) =>
    driven(
      problem,
      vehicleIndex.get(route.vehicleId)!,
      route.stops.map((s) => jobIndex.get(s.jobId)!),
    ),
  );
  return {
    routes: after.map(({ late: _late, ...route }) => route),
    unassigned: plan.unassigned,
    before: totals(currentRoutes(request, problem)),
    after: totals(after),
    iterations: plan.iterations,
  };
}
