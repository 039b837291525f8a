import type { FuelEventType } from "../../shared/fleet/vehicle-event";
import { MOVING_SPEED_MS, type NewId } from "../fold/motion";

/**
 * Refuels and fuel drops seen in the beacon's fuel level (OsmAnd `fuel`, percent of the tank), as
 * a pure function of (state, reading) so it is tested on recorded tracks and survives restarts
 * (docs/decisions/0050). Only readings taken while the vehicle stands are compared: a tank sloshes
 * while driving, and neither a refuel nor a theft happens on the move.
 *
 * - Each reading is smoothed by the median of the last MEDIAN_OF (5), so two wild readings close
 *   together are still not an event.
 * - While the vehicle stands, the lowest and highest smoothed levels of each 5-minute slot of the
 *   last CHANGE_WINDOW_MS are kept. A level REFUEL_MIN_POINTS above the lowest is a refuel; one
 *   DROP_MIN_POINTS below the highest is a fuel drop. The change must happen within the window:
 *   an engine idling for hours burns a few points an hour, far below either threshold per hour.
 * - An event starts when the level last stood at the low (or high) it is measured from, grows
 *   while the level goes on moving the same way, and ends once it has not moved on for SETTLE_MS
 *   and SETTLE_READINGS readings (or the vehicle drives off). The levels are compared afresh from there.
 * - Readings taken while driving are never compared: a stop's levels start with its own first
 *   MEDIAN_OF readings (three of them must come before a refuel starts: at a 30 s interval, the
 *   pump may start 90 s after the vehicle stopped).
 */
export const MEDIAN_OF = 5;
export const REFUEL_MIN_POINTS = 10;
export const DROP_MIN_POINTS = 8;
export const CHANGE_WINDOW_MS = 60 * 60_000;
export const SETTLE_MS = 5 * 60_000;
export const SETTLE_READINGS = 3;
/** Slots of the window: 5 minutes keeps a vehicle's state small and dates an event to within one. */
const SLOT_MS = 5 * 60_000;
/** Within this of the low (high) a level still stands where it was (the sensor's noise standing). */
const NEAR_POINTS = 2;

/** The lowest and highest smoothed level of a slot of standing time, and when each was seen last. */
interface Slot {
  t: number;
  lo: number;
  loAt: number;
  hi: number;
  hiAt: number;
}

/** A refuel or a drop under way. `at`: when the level last moved on; `quiet`: readings since. */
export interface OpenFuelEvent {
  id: string;
  type: FuelEventType;
  start: number;
  from: number;
  to: number;
  at: number;
  quiet?: number;
  latitude: number;
  longitude: number;
}

export interface FuelWatchState {
  /** The latest raw readings while standing (at most MEDIAN_OF). */
  recent: number[];
  /** Standing only: the window's slots, oldest first; emptied when the vehicle moves. */
  slots: Slot[];
  open: OpenFuelEvent | null;
}

export interface FuelReading {
  time: number;
  /** percent of the tank, null when the tracker sent none */
  fuel: number | null;
  /** m/s */
  speed: number | null;
  latitude: number;
  longitude: number;
}

/** An event as written: `end` null while it goes on. */
export interface FuelEventChange {
  id: string;
  type: FuelEventType;
  start: number;
  end: number | null;
  from: number;
  to: number;
  latitude: number;
  longitude: number;
}

export const emptyFuelWatch = (): FuelWatchState => ({ recent: [], slots: [], open: null });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const change = (e: OpenFuelEvent, end: number | null): FuelEventChange => ({
  id: e.id,
  type: e.type,
  start: e.start,
  end,
  from: e.from,
  to: e.to,
  latitude: e.latitude,
  longitude: e.longitude,
});

/** Folds one reading (in time order) into the watch; returns the events it opened, grew or ended. */
export function watchFuel(
  state: FuelWatchState,
  reading: FuelReading,
  newId: NewId,
): { state: FuelWatchState; changes: FuelEventChange[] } {
  if (reading.fuel === null) return { state, changes: [] };
  if ((reading.speed ?? 0) > MOVING_SPEED_MS) {
    // Driving off ends what was under way; the next stop is compared afresh, from its own readings.
    const changes = state.open ? [change(state.open, state.open.at)] : [];
    return { state: { recent: [], slots: [], open: null }, changes };
  }
  const recent = [...state.recent, reading.fuel].slice(-MEDIAN_OF);
  if (recent.length < MEDIAN_OF) return { state: { ...state, recent }, changes: [] };
  const level = median(recent);
  if (state.open) return follow(state.open, level, reading, recent, state.slots);
  const slots = record(state.slots, level, reading.time);
  const opened = detect(slots, level, reading, newId);
  if (!opened) return { state: { recent, slots, open: null }, changes: [] };
  return { state: { recent, slots, open: opened }, changes: [change(opened, null)] };
}

/** The slots with this level in the current one, those ended before the window left out. */
function record(slots: Slot[], level: number, time: number): Slot[] {
  const kept = slots.filter((s) => s.t + SLOT_MS > time - CHANGE_WINDOW_MS);
  const last = kept.at(-1);
  if (!last || time - last.t >= SLOT_MS) return [...kept, { t: time, lo: level, loAt: time, hi: level, hiAt: time }];
  const updated: Slot = {
    ...last,
    ...(level <= last.lo && { lo: level, loAt: time }),
    ...(level >= last.hi && { hi: level, hiAt: time }),
  };
  return [...kept.slice(0, -1), updated];
}

/** A rise from the window's low or a fall from its high beyond its threshold, or null. */
function detect(slots: Slot[], level: number, reading: FuelReading, newId: NewId): OpenFuelEvent | null {
  let low = slots[0]!;
  let high = slots[0]!;
  for (const s of slots) {
    if (s.lo <= low.lo) low = s;
    if (s.hi >= high.hi) high = s;
  }
  const rise = level - low.lo;
  const fall = high.hi - level;
  const where = { latitude: reading.latitude, longitude: reading.longitude, to: level, at: reading.time };
  if (rise >= REFUEL_MIN_POINTS && rise >= fall) {
    const start = lastNear(
      slots,
      (s) => s.lo <= low.lo + NEAR_POINTS,
      (s) => s.loAt,
    );
    return { id: newId(start, "REFUEL"), type: "REFUEL", start, from: low.lo, ...where };
  }
  if (fall >= DROP_MIN_POINTS) {
    const start = lastNear(
      slots,
      (s) => s.hi >= high.hi - NEAR_POINTS,
      (s) => s.hiAt,
    );
    return { id: newId(start, "FUEL_DROP"), type: "FUEL_DROP", start, from: high.hi, ...where };
  }
  return null;
}

/**
 * When the change began: in the latest slot whose level still stood near the one it is measured
 * from (noise may have put the very lowest or highest reading earlier in the window).
 */
function lastNear(slots: Slot[], near: (s: Slot) => boolean, at: (s: Slot) => number): number {
  for (let i = slots.length - 1; i >= 0; i--) if (near(slots[i]!)) return at(slots[i]!);
  return at(slots[0]!);
}

/** An event under way: it grows while the level moves on its way, and ends once it settles. */
function follow(open: OpenFuelEvent, level: number, reading: FuelReading, recent: number[], slots: Slot[]) {
  const beyond = open.type === "REFUEL" ? level - open.to : open.to - level;
  if (beyond > 0) {
    // A point or more is the level moving on; less may be noise at the top, which ends nothing.
    const moved = beyond >= 1;
    const grown = { ...open, to: level, at: moved ? reading.time : open.at, quiet: moved ? 0 : (open.quiet ?? 0) + 1 };
    return { state: { recent, slots, open: grown }, changes: [change(grown, null)] };
  }
  const quiet = (open.quiet ?? 0) + 1;
  // Settled only after SETTLE_MS and SETTLE_READINGS without moving on: a tracker reporting every
  // 5 minutes whose median stalls for one reading mid-drop has not settled.
  if (reading.time - open.at < SETTLE_MS || quiet < SETTLE_READINGS)
    return { state: { recent, slots, open: { ...open, quiet } }, changes: [] };
  // Settled: the event ends where the level last moved, and later levels are compared with this one.
  const settled = record([], level, reading.time);
  return { state: { recent, slots: settled, open: null }, changes: [change(open, open.at)] };
}
