import { eventIdOf } from "../fold/motion";
import { emptyFuelWatch, watchFuel, type FuelEventChange, type FuelReading } from "./level-watch";

/**
 * Positions (the recorded tracks of worker/fleet/fixtures, or a night parked) with a fuel level as a float sensor reports it, for
 * the fuel watch's tests and bench (docs/decisions/0050): seeded noise of ±1.5 points standing,
 * slosh of ±7 points driving, a single-reading spike now and then, the tank tilted a few points
 * differently at each stop, and what the engine burns. Refuels and drops are injected on top.
 * Support for domain/fuel/level-watch.test.ts and bench/fuel-detection.bench.ts; nothing ships it.
 */

/** A change of level injected into a track: `points` (+ refuel, - drop) spread over `minutes`. */
export interface Injection {
  at: number;
  points: number;
  minutes: number;
}

/** A small seeded generator (mulberry32): the same track every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MOVING = 1;
/** Burnt per second: about 10 L/100 km at 15 m/s, 1.5 L/h idling, of an 80 L tank (points). */
const BURN_MOVING = 0.0019;
const BURN_IDLE = 0.0005;

/** Fuel readings along the points given, from `start` percent, with the injections added. */
export function withFuel(
  points: Omit<FuelReading, "fuel">[],
  options: { start?: number; seed?: number; injections?: Injection[] } = {},
): FuelReading[] {
  const next = random(options.seed ?? 7);
  let level = options.start ?? 55;
  let tilt = 0;
  let wasMoving = true;
  return points.map((p, i) => {
    const moving = (p.speed ?? 0) > MOVING;
    const dt = i ? (p.time - points[i - 1]!.time) / 1000 : 0;
    if (dt < 3600) level -= dt * (moving ? BURN_MOVING : BURN_IDLE);
    if (!moving && wasMoving) tilt = (next() - 0.5) * 8;
    wasMoving = moving;
    const injected = (options.injections ?? []).reduce((sum, j) => sum + injected_(j, p.time), 0);
    const noise = moving ? (next() - 0.5) * 14 + tilt / 2 : (next() - 0.5) * 3 + tilt;
    const spike = next() < 0.03 ? (next() < 0.5 ? -15 : 15) : 0;
    const fuel = Math.min(100, Math.max(0, level + injected + noise + spike));
    return { ...p, fuel: Math.round(fuel * 10) / 10 };
  });
}

/** How much of an injection has happened by `time`. */
function injected_(j: Injection, time: number): number {
  if (time <= j.at) return 0;
  return j.points * Math.min(1, (time - j.at) / (j.minutes * 60_000));
}

/** A night parked: a reading every `everyMinutes`, from 18:00 for `hours`. */
export function parkedNight(hours: number, everyMinutes: number): Omit<FuelReading, "fuel">[] {
  const t0 = Date.parse("2026-10-20T23:00:00Z");
  return Array.from({ length: Math.floor((hours * 60) / everyMinutes) }, (_, i) => ({
    time: t0 + i * everyMinutes * 60_000,
    latitude: 41.9 + (i % 2) * 0.00003,
    longitude: -87.65,
    speed: 0,
  }));
}

/** Runs readings through the watch; the last version of every event, oldest first. */
export function detectFuel(readings: FuelReading[]): FuelEventChange[] {
  const newId = eventIdOf("v1");
  let state = emptyFuelWatch();
  const events = new Map<string, FuelEventChange>();
  for (const r of readings) {
    const step = watchFuel(state, r, newId);
    state = step.state;
    for (const e of step.changes) events.set(e.id, e);
  }
  return [...events.values()].sort((a, b) => a.start - b.start);
}
