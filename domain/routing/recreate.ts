import { runToEnd, type Steps } from "./steps";
import { below, type Random } from "./random";
import type { Solution } from "./solution";

/** SISR's blink rate: each insertion position is passed over with this chance, for diversity. */
const BLINK = 0.01;

interface Insertion {
  route: number;
  position: number;
  delta: number;
}

/**
 * Which positions blink: the gap to the next one drawn from the geometric law, so one random number
 * per blink rather than one per position.
 */
export class Blinker {
  private left = 0;
  constructor(
    private readonly random: Random,
    private readonly rate: number,
  ) {
    this.draw();
  }

  /** True when this position is passed over. */
  blinks(): boolean {
    if (this.left-- > 0) return false;
    this.draw();
    return true;
  }

  private draw(): void {
    this.left = this.rate > 0 ? Math.floor(Math.log(1 - this.random()) / Math.log(1 - this.rate)) : Infinity;
  }
}

/**
 * The cheapest place for a job among the routes in use, each position checked in constant time
 * against the forward/backward slack (Solution); with none, the cheapest vehicle still at home if
 * fewer than vehicleLimit are out (one per class: alike vehicles cost alike).
 */
export function bestInsertion(
  s: Solution,
  job: number,
  blink: Blinker,
  vehicleLimit: number,
  used: number,
): Insertion | null {
  const best: Insertion = { route: -1, position: 0, delta: Infinity };
  const p = s.instance;
  for (let r = 0; r < p.vehicles; r++) {
    if (!s.routes[r]!.length || !fits(s, job, r)) continue;
    scanRoute(s, job, r, blink, best);
  }
  if (best.route < 0 && used < vehicleLimit) openVehicle(s, job, best);
  return best.route < 0 ? null : best;
}

function fits(s: Solution, job: number, r: number): boolean {
  const p = s.instance;
  if (s.load[r]! + p.size[job]! > p.capacity[r]!) return false;
  return !p.allowed || p.allowed[r * p.jobs + job] === 1;
}

function scanRoute(s: Solution, job: number, r: number, blink: Blinker, best: Insertion): void {
  const p = s.instance;
  const { time, cost, location, service } = p;
  const { earliest, latest } = s;
  const P = p.places;
  const route = s.routes[r]!;
  const at = location[job]! * P;
  const due = p.due[job]!;
  const ready = p.ready[job]!;
  const after = service[job]!;
  let from = p.start[r]!;
  let depart = p.shiftStart[r]!;
  for (let i = 0; i <= route.length; i++) {
    if (depart > due) return;
    const next = i < route.length ? route[i]! : -1;
    const to = next >= 0 ? location[next]! : p.end[r]!;
    const arrive = depart + time[from * P + location[job]!]!;
    if (arrive <= due && !blink.blinks()) {
      const limit = next >= 0 ? latest[next]! : p.shiftEnd[r]!;
      if (Math.max(arrive, ready) + after + time[at + to]! <= limit) {
        const delta = cost[from * P + location[job]!]! + cost[at + to]! - cost[from * P + to]!;
        if (delta < best.delta) {
          best.route = r;
          best.position = i;
          best.delta = delta;
        }
      }
    }
    if (next < 0) return;
    from = to;
    depart = earliest[next]! + service[next]!;
  }
}

function openVehicle(s: Solution, job: number, best: Insertion): void {
  const p = s.instance;
  const tried = new Set<number>();
  for (let r = 0; r < p.vehicles; r++) {
    if (s.routes[r]!.length || tried.has(p.vehicleClass[r]!) || !fits(s, job, r)) continue;
    tried.add(p.vehicleClass[r]!);
    const P = p.places;
    const at = p.location[job]!;
    const begin = Math.max(p.shiftStart[r]! + p.time[p.start[r]! * P + at]!, p.ready[job]!);
    if (begin > p.due[job]! || begin + p.service[job]! + p.time[at * P + p.end[r]!]! > p.shiftEnd[r]!) continue;
    const delta = p.cost[p.start[r]! * P + at]! + p.cost[at * P + p.end[r]!]!;
    if (delta < best.delta) Object.assign(best, { route: r, position: 0, delta });
  }
}

/**
 * SISR's recreate (Christiaens & Vanden Berghe 2020): the jobs left out, in one of a few orders
 * drawn at random (random, largest first, farthest first, nearest first), each put where it costs
 * least with blinks. Those with no place stay out.
 */
export function recreate(s: Solution, random: Random, vehicleLimit: number, blink = BLINK): void {
  runToEnd(recreateSteps(s, random, vehicleLimit, blink, Infinity));
}

/**
 * The same, stopping every `jobsPerStep` insertions (./steps.ts): the first plan inserts every job
 * of the day at once, a second of a 500-job day on this machine, too long to hold the thread.
 */
export function* recreateSteps(
  s: Solution,
  random: Random,
  vehicleLimit: number,
  blink: number,
  jobsPerStep: number,
): Steps<void> {
  const order = s.absent;
  sortForInsertion(s, order, random);
  s.absent = [];
  let used = s.usedVehicles();
  const blinker = new Blinker(random, blink);
  for (const [i, job] of order.entries()) {
    if (i && i % jobsPerStep === 0) yield;
    const at = bestInsertion(s, job, blinker, vehicleLimit, used);
    if (!at) {
      s.absent.push(job);
      continue;
    }
    if (!s.routes[at.route]!.length) used++;
    s.insert(job, at.route, at.position);
  }
}

function sortForInsertion(s: Solution, jobs: number[], random: Random): void {
  const p = s.instance;
  const pick = below(random, 11);
  if (pick < 4) {
    for (let i = jobs.length - 1; i > 0; i--) {
      const k = below(random, i + 1);
      [jobs[i], jobs[k]] = [jobs[k]!, jobs[i]!];
    }
    return;
  }
  const home = p.vehicles ? p.start[0]! * p.places : 0;
  const far = (job: number) => p.cost[home + p.location[job]!]!;
  if (pick < 8) jobs.sort((a, b) => p.size[b]! - p.size[a]! || a - b);
  else if (pick < 10) jobs.sort((a, b) => far(b) - far(a) || a - b);
  else jobs.sort((a, b) => far(a) - far(b) || a - b);
}
