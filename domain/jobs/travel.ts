import { distanceMetres, type LatLon } from "../../shared/units/geo";

/**
 * How a vehicle is travelling today, learned from its own fixes (docs/decisions/0055): its recent
 * speed along the road, red lights and slow traffic included but long stops not, and its ratio of
 * road distance to straight-line distance, learned from each leg it drives. Both feed the ETA.
 */

/** A city speed when a vehicle has too little travel yet to measure its own (29 km/h). */
export const DEFAULT_SPEED_MPS = 8;
/**
 * Road distance over straight-line distance before a vehicle has driven a leg: street grids and
 * suburban road networks measure 1.2 to 1.4 (circuity studies; ADR 0055); learned per vehicle after.
 */
export const DEFAULT_ROAD_RATIO = 1.3;
/** The travel the recent speed is measured over. */
export const SPEED_WINDOW_MS = 10 * 60_000;
/** Below this much travel, the speed is blended with DEFAULT_SPEED_MPS. */
const MIN_MEASURED_MS = 3 * 60_000;
/** Standing still longer than this is a stop, not traffic: it does not count as travel. */
const STOP_MS = 3 * 60_000;
/** Two fixes further apart than this are a gap in reporting, not travel. */
const MAX_GAP_MS = 5 * 60_000;
/** Moving: a fix's speed (or its step's) above this. */
const MOVING_MPS = 1;
/** A leg shorter than this in a straight line says little about the roads. */
const MIN_LEG_CHORD_M = 300;
/** How much of the ratio each new leg moves (an exponential average). */
const RATIO_WEIGHT = 0.3;
const SAMPLE_EVERY_MS = 30_000;

export interface TravelState {
  /** Metres travelled today (counted travel only) and travel time (ms) to date. */
  metres: number;
  travelMs: number;
  /** [travelMs, metres] at most every SAMPLE_EVERY_MS, the last SPEED_WINDOW_MS of travel. */
  samples: [number, number][];
  /** When the vehicle last started standing still (null: moving). */
  stillSince: number | null;
  /**
   * Time standing still since then, not counted yet: traffic or a red light if the vehicle moves
   * on within STOP_MS (then counted), a stop if not (then dropped).
   */
  stillMs: number;
  /** Where and at how many metres the current leg started (null: not on a leg). */
  leg: { latitude: number; longitude: number; metres: number } | null;
  roadRatio: number;
}

export const initialTravel = (roadRatio = DEFAULT_ROAD_RATIO): TravelState => ({
  metres: 0,
  travelMs: 0,
  samples: [],
  stillSince: null,
  stillMs: 0,
  leg: null,
  roadRatio,
});

export interface TravelFix extends LatLon {
  time: number;
  /** m/s, null when the device does not say */
  speed: number | null;
}

/**
 * One fix's step: `atStop` says the vehicle is at one of its stops (an arrived job), which ends a
 * leg and is not travel. A leg also ends once the vehicle has stood still for STOP_MS.
 */
export function advanceTravel(
  state: TravelState,
  previous: TravelFix | null,
  fix: TravelFix,
  atStop: boolean,
): TravelState {
  if (!previous || fix.time <= previous.time) return state;
  const gap = fix.time - previous.time;
  const step = distanceMetres(previous, fix);
  const moving = (fix.speed ?? (step / gap) * 1000) > MOVING_MPS;
  if (gap > MAX_GAP_MS) return endLeg({ ...state, stillSince: null, stillMs: 0 }, fix);
  // The step onto a stop (the first fix standing, or the one inside its radius) was driven too.
  const onto = moving || state.stillSince === null ? step : 0;
  if (atStop) {
    // Only the fix that arrives ends a leg; the time at the stop is not travel.
    const travelled = state.leg ? { metres: state.metres + onto, travelMs: state.travelMs + state.stillMs + gap } : {};
    return endLeg({ ...state, ...travelled, stillSince: null, stillMs: 0 }, fix);
  }
  if (!moving) {
    const stillSince = state.stillSince ?? previous.time;
    if (fix.time - stillSince >= STOP_MS) return endLeg({ ...state, stillSince, stillMs: 0 }, fix);
    return { ...state, metres: state.metres + onto, stillSince, stillMs: state.stillMs + gap };
  }
  const metres = state.metres + step;
  const travelMs = state.travelMs + state.stillMs + gap;
  const leg = state.leg ?? { latitude: previous.latitude, longitude: previous.longitude, metres: state.metres };
  const samples = sampled(state.samples, travelMs, metres);
  return { ...state, metres, travelMs, samples, stillSince: null, stillMs: 0, leg };
}

function sampled(samples: [number, number][], travelMs: number, metres: number): [number, number][] {
  const last = samples.at(-1);
  if (last && travelMs - last[0] < SAMPLE_EVERY_MS) return samples;
  const kept = samples.filter(([t]) => travelMs - t <= SPEED_WINDOW_MS);
  return [...kept, [travelMs, metres]];
}

/** The leg ends here: its road distance over its straight line moves the ratio. */
function endLeg(state: TravelState, at: LatLon): TravelState {
  if (!state.leg) return state;
  const chord = distanceMetres(state.leg, at);
  const road = state.metres - state.leg.metres;
  if (chord < MIN_LEG_CHORD_M || road < chord) return { ...state, leg: null };
  const ratio = Math.min(3, road / chord);
  return { ...state, leg: null, roadRatio: state.roadRatio + RATIO_WEIGHT * (ratio - state.roadRatio) };
}

/** The vehicle's recent speed along the road (m/s), blended with a city speed while little is measured. */
export function recentSpeed(state: TravelState): number {
  const first = state.samples[0];
  const span = first ? state.travelMs - first[0] : 0;
  const metres = first ? state.metres - first[1] : 0;
  if (span >= MIN_MEASURED_MS) return Math.max(MOVING_MPS, (metres / span) * 1000);
  const blended = (metres + (DEFAULT_SPEED_MPS * (MIN_MEASURED_MS - span)) / 1000) / MIN_MEASURED_MS;
  return Math.max(MOVING_MPS, blended * 1000);
}
