import { distanceMetres, pointAlong, polylineLength, reversed, type LatLon, type Polyline } from "./geo";
import type { Random } from "./random";

/**
 * One simulated vehicle as a pure state machine: `advance(vehicle, now, random)` moves it to
 * `now`, `reportOf(vehicle)` is what its tracker would send. It drives a street route one way,
 * parks with the ignition off (refuelling when low), sometimes idles with the engine running,
 * waits at lights, and now and then is towed (moving with the ignition off).
 *
 * Durations are shortened so a demo shows every behaviour within minutes: stops last 1.5 to 5
 * minutes, and the tank holds 150 km.
 */
export type Phase =
  /**
   * Ignition off, standing; `refuel` fills the tank meanwhile, from `pumpAt` on: the driver walks
   * to the pump first, so the tracker reports the level it arrived with (docs/decisions/0050).
   */
  | { kind: "parked"; until: number; refuel: boolean; pumpAt?: number }
  /** Ignition on, standing: warming up before a trip, or a long idle at a stop. */
  | { kind: "idling"; until: number; next: "drive" | "park" }
  /** On the road at about `cruise` m/s; `waitUntil` while stopped at a light. */
  | { kind: "driving"; cruise: number; waitUntil: number | null }
  /** On a tow truck, ignition off, until `endAt` metres along the leg. */
  | { kind: "towed"; endAt: number };

export interface SimVehicle {
  deviceId: string;
  /** The street route being driven, in the direction of travel. */
  line: Polyline;
  length: number;
  /** metres along `line` */
  along: number;
  latitude: number;
  longitude: number;
  heading: number;
  /** m/s */
  speed: number;
  ignition: boolean;
  /** percent */
  fuel: number;
  /** metres */
  odometer: number;
  /** percent, the tracker's own battery */
  battery: number;
  phase: Phase;
  /** ms since epoch, the last time the vehicle was advanced to */
  time: number;
}

export interface SimReport {
  deviceId: string;
  time: number;
  latitude: number;
  longitude: number;
  /** m/s */
  speed: number;
  heading: number;
  altitude: number;
  accuracy: number;
  battery: number;
  ignition: boolean;
  fuel: number;
  odometer: number;
}

export const TANK_RANGE_M = 150_000;
export const REFUEL_BELOW = 20;
const IDLE_FUEL_PER_S = 0.004;
const REFUEL_PER_S = 1;
/** From parking at the pump to the fuel flowing. */
const WALK_TO_PUMP_MS = 40_000;
const GPS_NOISE_M = 3;

/** Where to pick up from: the vehicle's last known telemetry, so a restarted demo continues. */
export interface Resume {
  latitude: number;
  longitude: number;
  odometer: number | null;
  fuel: number | null;
}

/** A new vehicle on `line`: half start on the road, half parked for a few seconds. */
export function createVehicle(
  deviceId: string,
  line: Polyline,
  random: Random,
  now: number,
  resume?: Resume,
): SimVehicle {
  const length = polylineLength(line);
  let along: number;
  let phase: Phase;
  if (resume) {
    along = nearestAlong(line, resume);
    phase = { kind: "parked", until: now + random.between(5_000, 45_000), refuel: false };
  } else if (random.chance(0.5)) {
    along = random.between(0, length * 0.8);
    phase = { kind: "driving", cruise: random.between(9, 15), waitUntil: null };
  } else {
    along = random.chance(0.5) ? 0 : length;
    phase = { kind: "parked", until: now + random.between(5_000, 60_000), refuel: false };
  }
  const driving = phase.kind === "driving";
  const vehicle: SimVehicle = {
    deviceId,
    line,
    length,
    along,
    ...pointAlong(line, along),
    speed: driving ? (phase as { cruise: number }).cruise : 0,
    ignition: driving,
    fuel: resume?.fuel ?? Math.round(random.between(15, 95)),
    odometer: resume?.odometer ?? Math.round(random.between(8_000, 160_000)) * 1000,
    battery: Math.round(random.between(60, 100)),
    phase,
    time: now,
  };
  return vehicle;
}

/** Metres along `line` of its point nearest to `p` (to within 5 m). */
function nearestAlong(line: Polyline, p: LatLon) {
  const length = polylineLength(line);
  let best = { d: Infinity, along: 0 };
  for (let along = 0; along <= length + 5; along += 5) {
    const d = distanceMetres(p, pointAlong(line, along));
    if (d < best.d) best = { d, along: Math.min(along, length) };
  }
  return best.along;
}

/** Moves the vehicle forward to `now` (called every few seconds). */
export function advance(v: SimVehicle, now: number, random: Random): SimVehicle {
  const dt = Math.max(0, (now - v.time) / 1000);
  const next: SimVehicle = { ...v, time: now };
  const phase = v.phase;

  switch (phase.kind) {
    case "parked": {
      next.speed = 0;
      next.ignition = false;
      if (phase.refuel && now >= (phase.pumpAt ?? 0)) next.fuel = Math.min(100, v.fuel + REFUEL_PER_S * dt);
      if (now >= phase.until) startTrip(next, random, now);
      break;
    }
    case "idling": {
      next.speed = 0;
      next.ignition = true;
      next.fuel = Math.max(0, v.fuel - IDLE_FUEL_PER_S * dt);
      if (now >= phase.until) {
        if (phase.next === "drive") next.phase = { kind: "driving", cruise: random.between(9, 15), waitUntil: null };
        else park(next, random, now);
      }
      break;
    }
    case "driving": {
      next.ignition = true;
      if (phase.waitUntil !== null && now < phase.waitUntil) {
        next.speed = 0;
        next.fuel = Math.max(0, v.fuel - IDLE_FUEL_PER_S * dt);
        break;
      }
      const speed = Math.max(3, phase.cruise + random.between(-2, 2));
      const moved = Math.min(speed * dt, v.length - v.along);
      next.along = v.along + moved;
      next.speed = speed;
      next.odometer = v.odometer + moved;
      next.fuel = Math.max(0, v.fuel - (moved / TANK_RANGE_M) * 100);
      next.phase = { ...phase, waitUntil: null };
      if (next.along >= v.length) {
        next.speed = 0;
        // At the destination: sometimes the driver keeps the engine running for a while.
        if (random.chance(0.25) && next.fuel >= REFUEL_BELOW) {
          next.phase = { kind: "idling", until: now + random.between(200_000, 360_000), next: "park" };
        } else {
          park(next, random, now);
        }
      } else if (random.chance(Math.min(1, dt / 90))) {
        // A red light or traffic: stands for well under the 180 s that make a stop.
        next.phase = { kind: "driving", cruise: phase.cruise, waitUntil: now + random.between(15_000, 50_000) };
      }
      break;
    }
    case "towed": {
      next.ignition = false;
      const speed = random.between(6, 9);
      const moved = Math.min(speed * dt, phase.endAt - v.along);
      next.along = v.along + moved;
      next.speed = speed;
      if (next.along >= phase.endAt) {
        next.speed = 0;
        next.phase = { kind: "parked", until: now + random.between(240_000, 420_000), refuel: false };
      }
      break;
    }
  }

  const at = pointAlong(next.line, next.along);
  const standing = next.speed === 0;
  // GPS noise: a few metres, so a parked vehicle jitters like a real one without "moving".
  const noise = GPS_NOISE_M / 111_000;
  next.latitude = at.latitude + random.between(-noise, noise);
  next.longitude = at.longitude + random.between(-noise, noise);
  next.heading = standing ? v.heading : at.heading;
  next.battery = Math.max(5, v.battery - 0.0005 * dt);
  return next;
}

/** Parks at the current point; a low tank means this stop is at a gas station. */
function park(v: SimVehicle, random: Random, now: number) {
  v.speed = 0;
  v.ignition = false;
  const refuel = v.fuel < REFUEL_BELOW;
  v.phase = refuel
    ? { kind: "parked", until: now + random.between(180_000, 240_000), refuel, pumpAt: now + WALK_TO_PUMP_MS }
    : { kind: "parked", until: now + random.between(90_000, 300_000), refuel };
}

/** Leaves a stop: back along the route it came, now and then on a tow truck instead. */
function startTrip(v: SimVehicle, random: Random, now: number) {
  if (v.along >= v.length - 1) {
    v.line = reversed(v.line);
    v.along = 0;
  }
  if (random.chance(0.04)) {
    v.phase = { kind: "towed", endAt: Math.min(v.length, v.along + random.between(600, 1500)) };
  } else if (random.chance(0.3)) {
    v.ignition = true;
    v.phase = { kind: "idling", until: now + random.between(20_000, 90_000), next: "drive" };
  } else {
    v.ignition = true;
    v.phase = { kind: "driving", cruise: random.between(9, 15), waitUntil: null };
  }
}

/** What the vehicle's tracker sends now. */
export function reportOf(v: SimVehicle): SimReport {
  return {
    deviceId: v.deviceId,
    time: v.time,
    latitude: round(v.latitude, 6),
    longitude: round(v.longitude, 6),
    speed: round(v.speed, 2),
    heading: Math.round(v.heading),
    altitude: 20,
    accuracy: 5,
    battery: Math.round(v.battery),
    ignition: v.ignition,
    fuel: round(v.fuel, 1),
    odometer: Math.round(v.odometer),
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
