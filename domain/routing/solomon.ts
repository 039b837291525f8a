import type { RoutingProblem } from "./problem";

/** A Solomon instance as ../shared/routing/README.md gives it. */
export interface SolomonInstance {
  name: string;
  capacity: number;
  depot: { x: number; y: number; ready: number; due: number };
  customers: { id: number; x: number; y: number; demand: number; ready: number; due: number; service: number }[];
  bestKnown?: { vehicles: number; distance: number };
}

/**
 * The instance as a day to plan: place 0 is the depot, place i the i-th customer; as many vehicles
 * as customers (any number may be used); travel time and distance both the Euclidean distance in
 * double precision, as every published result counts them.
 */
export function solomonProblem(instance: SolomonInstance): RoutingProblem {
  const points = [instance.depot, ...instance.customers];
  const euclid = (a: number, b: number) => Math.hypot(points[a]!.x - points[b]!.x, points[a]!.y - points[b]!.y);
  return {
    jobs: instance.customers.map((c, i) => ({
      id: String(c.id),
      location: i + 1,
      windowStart: c.ready,
      windowEnd: c.due,
      serviceTime: c.service,
      size: c.demand,
    })),
    vehicles: instance.customers.map((_, i) => ({
      id: `vehicle ${i + 1}`,
      start: 0,
      end: 0,
      shiftStart: instance.depot.ready,
      shiftEnd: instance.depot.due,
      capacity: instance.capacity,
    })),
    travel: { places: points.length, time: euclid, distance: euclid },
  };
}

export interface SolomonCheck {
  errors: string[];
  vehicles: number;
  distance: number;
}

/**
 * Checks routes of customer ids against the instance itself, by the published rules and nothing of
 * the planner's: every customer exactly once, each route's load within the capacity, each service
 * started within its window (waiting when early) and the depot reached again by its due time; the
 * distance summed again in double precision.
 */
export function checkSolomon(instance: SolomonInstance, routes: readonly (readonly number[])[]): SolomonCheck {
  const errors: string[] = [];
  const byId = new Map(instance.customers.map((c) => [c.id, c]));
  const seen = new Map<number, number>();
  let distance = 0;
  routes.forEach((route, r) => {
    let at: { x: number; y: number } = instance.depot;
    let clock = instance.depot.ready;
    let load = 0;
    for (const id of route) {
      const c = byId.get(id);
      if (!c) {
        errors.push(`route ${r + 1}: no customer ${id}`);
        continue;
      }
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const leg = Math.hypot(c.x - at.x, c.y - at.y);
      distance += leg;
      clock = Math.max(clock + leg, c.ready);
      if (clock > c.due) errors.push(`route ${r + 1}: customer ${id} served at ${clock}, due ${c.due}`);
      clock += c.service;
      load += c.demand;
      at = c;
    }
    const home = Math.hypot(instance.depot.x - at.x, instance.depot.y - at.y);
    distance += home;
    if (clock + home > instance.depot.due)
      errors.push(`route ${r + 1}: back at ${clock + home}, depot due ${instance.depot.due}`);
    if (load > instance.capacity) errors.push(`route ${r + 1}: load ${load} over ${instance.capacity}`);
  });
  for (const c of instance.customers)
    if (seen.get(c.id) !== 1) errors.push(`customer ${c.id} visited ${seen.get(c.id) ?? 0} times`);
  return { errors, vehicles: routes.filter((route) => route.length).length, distance };
}
