import type { Instance } from "./problem";

/**
 * A plan being searched: one route per vehicle (empty: the vehicle stays home) and the jobs left
 * out. Each routed job keeps its earliest start of service (forward pass) and its latest start that
 * still lets the rest of its route keep every window and the shift (backward pass), so whether a job
 * fits between two stops is answered in constant time (Savelsbergh's forward/backward slack).
 * A move is tried in place and rolled back when refused: only the routes it touched are saved and
 * recomputed.
 */
export class Solution {
  readonly routes: number[][];
  readonly load: Float64Array;
  readonly routeCost: Float64Array;
  readonly routeOf: Int32Array;
  readonly earliest: Float64Array;
  readonly latest: Float64Array;
  absent: number[] = [];
  cost = 0;
  private readonly saved = new Map<number, number[]>();
  private savedAbsent: number[] = [];
  private savedCost = 0;

  /** plannable: the jobs the search places (those some vehicle could serve on its own). */
  constructor(
    readonly instance: Instance,
    readonly plannable: readonly number[],
  ) {
    this.routes = Array.from({ length: instance.vehicles }, () => []);
    this.load = new Float64Array(instance.vehicles);
    this.routeCost = new Float64Array(instance.vehicles);
    this.routeOf = new Int32Array(instance.jobs).fill(-1);
    this.earliest = new Float64Array(instance.jobs);
    this.latest = new Float64Array(instance.jobs);
  }

  usedVehicles(): number {
    let used = 0;
    for (const route of this.routes) if (route.length) used++;
    return used;
  }

  /** Starts a move that may be rolled back. */
  begin(): void {
    this.saved.clear();
    this.savedAbsent = this.absent.slice();
    this.savedCost = this.cost;
  }

  /** Called before a move changes route r. */
  touch(r: number): void {
    if (!this.saved.has(r)) this.saved.set(r, this.routes[r]!.slice());
  }

  rollback(): void {
    for (const job of this.savedAbsent) this.routeOf[job] = -1;
    for (const [r, route] of this.saved) {
      this.routes[r] = route;
      this.refresh(r);
    }
    this.absent = this.savedAbsent;
    this.cost = this.savedCost;
    this.saved.clear();
  }

  /** Recomputes route r's schedule, load and cost; false when it breaks a window, the shift or the capacity. */
  refresh(r: number): boolean {
    const { instance: p, earliest, latest } = this;
    const route = this.routes[r]!;
    const places = p.places;
    let place = p.start[r]!;
    let clock = p.shiftStart[r]!;
    let cost = 0;
    let load = 0;
    let feasible = true;
    for (const job of route) {
      const to = p.location[job]!;
      const begin = Math.max(clock + p.time[place * places + to]!, p.ready[job]!);
      if (begin > p.due[job]!) feasible = false;
      earliest[job] = begin;
      clock = begin + p.service[job]!;
      cost += p.cost[place * places + to]!;
      load += p.size[job]!;
      this.routeOf[job] = r;
      place = to;
    }
    const end = p.end[r]!;
    if (route.length) cost += p.cost[place * places + end]!;
    if (route.length && clock + p.time[place * places + end]! > p.shiftEnd[r]!) feasible = false;
    let limit = p.shiftEnd[r]!;
    place = end;
    for (let i = route.length - 1; i >= 0; i--) {
      const job = route[i]!;
      const from = p.location[job]!;
      limit = Math.min(p.due[job]!, limit - p.time[from * places + place]! - p.service[job]!);
      latest[job] = limit;
      place = from;
    }
    this.cost += cost - this.routeCost[r]!;
    this.routeCost[r] = cost;
    this.load[r] = load;
    return feasible && load <= p.capacity[r]!;
  }

  insert(job: number, r: number, position: number): void {
    this.touch(r);
    this.routes[r]!.splice(position, 0, job);
    this.refresh(r);
  }

  /** The routes as lists of jobs, to keep the best plan found. */
  snapshot(): number[][] {
    return this.routes.map((route) => route.slice());
  }

  restore(routes: readonly (readonly number[])[]): void {
    this.routeOf.fill(-1);
    routes.forEach((route, r) => {
      this.routes[r] = route.slice();
      this.refresh(r);
    });
    this.absent = this.plannable.filter((job) => this.routeOf[job] === -1);
  }
}
