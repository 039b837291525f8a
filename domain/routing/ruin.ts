import { below, type Random } from "./random";
import type { Solution } from "./solution";

/** SISR's defaults: about this many jobs removed per ruin, strings of at most this many. */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
/**
 * How often a ruin takes whole routes out instead (the seed's and another): with few long routes
 * full to capacity, strings of ten cannot trade a cluster of stops between two routes, a rebuild of
 * both can (our addition to SISR, docs/decisions/0070).
 */
const ROUTE_REMOVAL = 0.05;

/**
 * SISR's ruin (Christiaens & Vanden Berghe 2020, "Slack induction by string removals"): from a job
 * drawn at random, walk its nearest jobs and take a string of consecutive stops (or a string with a
 * few stops kept in it) out of each route met, a few routes at most. Removing strings of nearby
 * routes frees room in time and load where the routes are close, which the recreate then refills.
 */
export function ruin(s: Solution, random: Random, seed: number): void {
  if (random() < ROUTE_REMOVAL) return removeRoutes(s, random, seed);
  let routed = 0;
  let used = 0;
  for (const route of s.routes)
    if (route.length) {
      routed += route.length;
      used++;
    }
  if (!used) return;
  const stringMax = Math.min(MAX_STRING, routed / used);
  const routesMax = (4 * AVERAGE_REMOVED) / (1 + stringMax) - 1;
  const routesToRuin = Math.floor(random() * routesMax) + 1;
  const { jobs, neighbours } = s.instance;
  const ruined: number[] = [];
  for (let k = -1; k < jobs - 1 && ruined.length < routesToRuin; k++) {
    const job = k < 0 ? seed : neighbours[seed * (jobs - 1) + k]!;
    const r = s.routeOf[job]!;
    if (r < 0 || ruined.includes(r)) continue;
    removeString(s, r, job, stringMax, random);
    ruined.push(r);
  }
}

function removeString(s: Solution, r: number, job: number, stringMax: number, random: Random): void {
  const route = s.routes[r]!;
  const length = Math.floor(random() * Math.min(route.length, stringMax)) + 1;
  const at = route.indexOf(job);
  let kept = 0;
  if (length < route.length && random() < 0.5) {
    kept = 1;
    while (length + kept < route.length && random() < 0.5) kept++;
  }
  const span = length + kept;
  const first = Math.max(0, at - span + 1);
  const start = first + below(random, Math.min(at, route.length - span) - first + 1);
  const keepFrom = start + below(random, length + 1);
  const removed: number[] = [];
  const left: number[] = [];
  route.forEach((stop, i) => {
    const inSpan = i >= start && i < start + span;
    const keptInSpan = kept > 0 && i >= keepFrom && i < keepFrom + kept;
    (inSpan && !keptInSpan ? removed : left).push(stop);
  });
  s.touch(r);
  s.routes[r] = left;
  takeOut(s, removed);
  // Leaving a stop out never makes a route late when travel times keep the triangle inequality;
  // a matrix that does not (rush-hour speeds) can, and then the whole route is taken out.
  if (!s.refresh(r)) {
    takeOut(s, left);
    s.routes[r] = [];
    s.refresh(r);
  }
}

function takeOut(s: Solution, jobs: readonly number[]): void {
  for (const job of jobs) {
    s.routeOf[job] = -1;
    s.absent.push(job);
  }
}

/** Takes the seed's route (or one at random) and one other route drawn at random out whole. */
function removeRoutes(s: Solution, random: Random, seed: number): void {
  const first = s.routeOf[seed]!;
  const used = s.routes.flatMap((route, r) => (route.length && r !== first ? [r] : []));
  const chosen = [first >= 0 ? first : used[below(random, used.length)]!];
  const other = used[below(random, used.length)];
  if (other !== undefined && other !== chosen[0]) chosen.push(other);
  for (const r of chosen) {
    if (r === undefined) continue;
    s.touch(r);
    takeOut(s, s.routes[r]!);
    s.routes[r] = [];
    s.refresh(r);
  }
}
