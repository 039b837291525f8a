// A simulated working day along the simulator's street routes (scripts/sim/routes.ts), for the
// job benches: the truth at every second, the reports a tracker sends, and jobs placed along it.
// Out along a route stopping at three customers, back along it stopping at two more; city speeds
// with acceleration, red lights on the way, GPS noise of a few metres. Seeded: the same day every run.
import { distanceMetres, pointAlong, polylineLength, reversed, type Polyline } from "../scripts/sim/geo";
import type { Random } from "../scripts/sim/random";
import { NO_PROGRESS, type PlannedJob } from "../domain/jobs/planned-job";
import type { JobFix } from "../domain/jobs/progress";

export interface TruthSecond {
  time: number;
  latitude: number;
  longitude: number;
  speed: number;
}

export interface SimulatedDay {
  truth: TruthSecond[];
  reports: JobFix[];
  /** Real stops (the vehicle stays there) and decoys (passed at speed 1.5 radii off the road). */
  jobs: PlannedJob[];
  decoys: Set<string>;
}

const METRES_PER_DEGREE = 111_320;
const RADIUS_M = 100;

/** Drives `line` from `from` to `to` metres along it, second by second, appending to `truth`. */
function driveLeg(truth: TruthSecond[], line: Polyline, from: number, to: number, random: Random) {
  let at = from;
  let speed = 0;
  let cruise = random.between(8, 14);
  let nextLight = at + random.between(250, 700);
  while (at < to) {
    const toLight = nextLight - at;
    const brake = Math.min(to - at, toLight);
    // slow down before a light or the stop (about 2 m/s² of braking), else speed up to cruise
    const limit = Math.sqrt(2 * 2 * Math.max(0, brake - 5));
    speed = Math.max(0, Math.min(cruise, speed + 1.5, limit + 0.5));
    at = Math.min(to, at + speed);
    const p = pointAlong(line, at);
    truth.push({ time: truth.at(-1)!.time + 1000, latitude: p.latitude, longitude: p.longitude, speed });
    if (at >= nextLight - 5) {
      if (random.chance(0.5)) stand(truth, Math.round(random.between(10, 60)));
      nextLight = at + random.between(250, 700);
      cruise = random.between(8, 14);
    }
  }
}

function stand(truth: TruthSecond[], seconds: number) {
  const last = truth.at(-1)!;
  for (let s = 1; s <= seconds; s++) truth.push({ ...last, time: last.time + s * 1000, speed: 0 });
}

/** The day's truth along one route and its way back; where the five customers are (metres along each way). */
function simulate(line: Polyline, start: number, random: Random) {
  const back = reversed(line);
  const length = polylineLength(line);
  const p0 = pointAlong(line, 0);
  const truth: TruthSecond[] = [{ time: start, latitude: p0.latitude, longitude: p0.longitude, speed: 0 }];
  stand(truth, 120);
  const stops: { line: Polyline; at: number; dwell: number }[] = [
    { line, at: length * 0.3, dwell: random.between(4, 8) },
    { line, at: length * 0.6, dwell: random.between(4, 8) },
    { line, at: length, dwell: random.between(4, 8) },
    { line: back, at: length * 0.5, dwell: random.between(4, 8) },
    { line: back, at: length - 20, dwell: random.between(4, 8) },
  ];
  let from = 0;
  for (const stop of stops) {
    if (stop.line === back && from >= length * 0.99) from = 0;
    driveLeg(truth, stop.line, from, stop.at, random);
    stand(truth, Math.round(stop.dwell * 60));
    from = stop.at;
  }
  return { truth, stops };
}

/** What a tracker sends: a fix every `everyS` seconds, a few metres of noise, its speed. */
function reportsOf(truth: TruthSecond[], everyS: number, random: Random): JobFix[] {
  return truth
    .filter((_, i) => i % everyS === 0)
    .map((t) => {
      const noise = 5 / METRES_PER_DEGREE;
      const cos = Math.cos((t.latitude * Math.PI) / 180);
      return {
        time: t.time,
        latitude: t.latitude + (random.next() - 0.5) * 2 * noise,
        longitude: t.longitude + ((random.next() - 0.5) * 2 * noise) / cos,
        speed: t.speed,
        accuracy: 8,
      };
    });
}

const plannedJob = (id: string, sequence: number, p: { latitude: number; longitude: number }, minutes: number) => ({
  ...NO_PROGRESS,
  id,
  number: sequence,
  title: id,
  area: null,
  sequence,
  latitude: p.latitude,
  longitude: p.longitude,
  radiusMeters: RADIUS_M,
  durationMinutes: minutes,
  windowStart: null,
  windowEnd: null,
});

/** A decoy 1.5 radii to the side of a point the vehicle drives past. */
function beside(line: Polyline, at: number) {
  const p = pointAlong(line, at);
  const q = pointAlong(line, at + 10);
  const [dx, dy] = [q.longitude - p.longitude, q.latitude - p.latitude];
  const norm = Math.hypot(dx * Math.cos((p.latitude * Math.PI) / 180), dy) || 1;
  const off = (1.5 * RADIUS_M) / METRES_PER_DEGREE;
  return {
    latitude: p.latitude + (dx * Math.cos((p.latitude * Math.PI) / 180) * off) / norm,
    longitude: p.longitude - (dy * off) / norm / Math.cos((p.latitude * Math.PI) / 180),
  };
}

export function simulatedDay(line: Polyline, start: number, everyS: number, random: Random): SimulatedDay {
  const { truth, stops } = simulate(line, start, random);
  const jobs: PlannedJob[] = [];
  const decoys = new Set<string>();
  stops.forEach((stop, i) => {
    const p = pointAlong(stop.line, stop.at);
    // a little short of the stop's dwell, as a planner would expect it
    jobs.push(plannedJob(`stop-${i}`, i * 2 + 1, p, Math.max(1, Math.floor(stop.dwell) - 1)));
    if (i < 4) {
      const id = `decoy-${i}`;
      const next = stops[i + 1]!;
      const from = next.line === stop.line ? stop.at : 0;
      jobs.push(plannedJob(id, i * 2 + 2, beside(next.line, (from + next.at) / 2), 5));
      decoys.add(id);
    }
  });
  return { truth, reports: reportsOf(truth, everyS, random), jobs, decoys };
}

/** When the true track first comes within `radius` of a point after `after`, and when it next leaves. */
export function trueVisit(truth: TruthSecond[], p: { latitude: number; longitude: number }, radius: number, after = 0) {
  const i = truth.findIndex((t) => t.time > after && distanceMetres(t, p) <= radius);
  if (i < 0) return null;
  const out = truth.findIndex((t, k) => k > i && distanceMetres(t, p) > radius);
  return { arrivedAt: truth[i]!.time, departedAt: out < 0 ? null : truth[out]!.time };
}
