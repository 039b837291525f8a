/**
 * The day to plan (issue 54, docs/decisions/0070): jobs with a window, a service time and a size,
 * vehicles with a start and an end place, a shift and a capacity, and the travel between places.
 * Times are numbers in one unit the caller chooses (minutes for Solomon, seconds in the product),
 * absolute on one clock; places are indices into the travel matrices.
 */
export interface RoutingJob {
  id: string;
  location: number;
  /** The earliest and the latest start of service; a vehicle arriving early waits. */
  windowStart: number;
  windowEnd: number;
  serviceTime: number;
  size: number;
  /** Every one of these must be among the vehicle's skills. */
  skills?: readonly string[];
}

export interface RoutingVehicle {
  id: string;
  start: number;
  end: number;
  /** Leaves start no earlier than shiftStart, is back at end by shiftEnd. */
  shiftStart: number;
  shiftEnd: number;
  capacity: number;
  skills?: readonly string[];
}

/** Travel between places: full matrices, or a function and the number of places (read once). */
export type Travel =
  | { time: readonly (readonly number[])[]; distance: readonly (readonly number[])[] }
  | { places: number; time: (from: number, to: number) => number; distance: (from: number, to: number) => number };

export interface RoutingProblem {
  jobs: readonly RoutingJob[];
  vehicles: readonly RoutingVehicle[];
  travel: Travel;
}

/**
 * What a route costs per leg: its travel time, with its distance as a tie-break far below any time
 * difference that matters (the objective is fewer vehicles, then time, then distance).
 */
const DISTANCE_WEIGHT = 1e-6;

/** The problem in flat typed arrays, read by every inner loop of the search. */
export interface Instance {
  jobs: number;
  vehicles: number;
  places: number;
  location: Int32Array;
  ready: Float64Array;
  due: Float64Array;
  service: Float64Array;
  size: Float64Array;
  start: Int32Array;
  end: Int32Array;
  shiftStart: Float64Array;
  shiftEnd: Float64Array;
  capacity: Float64Array;
  /** Vehicles alike in every respect share a class: one empty one of a class is tried, not all. */
  vehicleClass: Int32Array;
  /** places × places, row = from. */
  time: Float64Array;
  distance: Float64Array;
  cost: Float64Array;
  /** vehicles × jobs, 1 where the vehicle has the job's skills; null when no job asks for any. */
  allowed: Uint8Array | null;
  /** For each job, the other jobs nearest first (jobs - 1 per job). */
  neighbours: Int32Array;
}

export function compile(problem: RoutingProblem): Instance {
  const { jobs, vehicles } = problem;
  const matrices = travelMatrices(problem.travel);
  return {
    jobs: jobs.length,
    vehicles: vehicles.length,
    ...matrices,
    location: Int32Array.from(jobs, (j) => j.location),
    ready: Float64Array.from(jobs, (j) => j.windowStart),
    due: Float64Array.from(jobs, (j) => j.windowEnd),
    service: Float64Array.from(jobs, (j) => j.serviceTime),
    size: Float64Array.from(jobs, (j) => j.size),
    start: Int32Array.from(vehicles, (v) => v.start),
    end: Int32Array.from(vehicles, (v) => v.end),
    shiftStart: Float64Array.from(vehicles, (v) => v.shiftStart),
    shiftEnd: Float64Array.from(vehicles, (v) => v.shiftEnd),
    capacity: Float64Array.from(vehicles, (v) => v.capacity),
    vehicleClass: vehicleClasses(vehicles),
    allowed: skillMatrix(jobs, vehicles),
    neighbours: nearestJobs(jobs, matrices.cost, matrices.places),
  };
}

function travelMatrices(travel: Travel) {
  const places = "places" in travel ? travel.places : travel.time.length;
  const at =
    "places" in travel
      ? travel
      : {
          time: (a: number, b: number) => travel.time[a]![b]!,
          distance: (a: number, b: number) => travel.distance[a]![b]!,
        };
  const time = new Float64Array(places * places);
  const distance = new Float64Array(places * places);
  const cost = new Float64Array(places * places);
  for (let a = 0; a < places; a++)
    for (let b = 0; b < places; b++) {
      const k = a * places + b;
      time[k] = at.time(a, b);
      distance[k] = at.distance(a, b);
      cost[k] = time[k]! + DISTANCE_WEIGHT * distance[k]!;
    }
  return { places, time, distance, cost };
}

function vehicleClasses(vehicles: readonly RoutingVehicle[]): Int32Array {
  const keys = new Map<string, number>();
  return Int32Array.from(vehicles, (v) => {
    const key = JSON.stringify([v.start, v.end, v.shiftStart, v.shiftEnd, v.capacity, [...(v.skills ?? [])].sort()]);
    if (!keys.has(key)) keys.set(key, keys.size);
    return keys.get(key)!;
  });
}

function skillMatrix(jobs: readonly RoutingJob[], vehicles: readonly RoutingVehicle[]): Uint8Array | null {
  if (!jobs.some((j) => j.skills?.length)) return null;
  const allowed = new Uint8Array(vehicles.length * jobs.length);
  vehicles.forEach((v, k) => {
    const has = new Set(v.skills ?? []);
    jobs.forEach((j, i) => {
      allowed[k * jobs.length + i] = (j.skills ?? []).every((s) => has.has(s)) ? 1 : 0;
    });
  });
  return allowed;
}

function nearestJobs(jobs: readonly RoutingJob[], cost: Float64Array, places: number): Int32Array {
  const n = jobs.length;
  const out = new Int32Array(n * Math.max(0, n - 1));
  const others: number[] = [];
  for (let i = 0; i < n; i++) {
    const from = jobs[i]!.location * places;
    others.length = 0;
    for (let j = 0; j < n; j++) if (j !== i) others.push(j);
    others.sort((a, b) => cost[from + jobs[a]!.location]! - cost[from + jobs[b]!.location]! || a - b);
    out.set(others, i * (n - 1));
  }
  return out;
}
