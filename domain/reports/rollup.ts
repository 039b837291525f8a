import { dayOf, endOfDay, startOfDay } from "../../shared/units/time-zone";
import { mphToMetresPerSecond } from "../../shared/units/units";
import { advanceOdometer, initialOdometer, MAX_PLAUSIBLE_SPEED_MS, type OdometerState } from "../fold/gps-odometer";
import { GAP_MS, MOVING_SPEED_MS } from "../fold/motion";
import type { VehicleEventType } from "../../shared/fleet/vehicle-event";
import type { Fix } from "../fold/fold";
import { noFigures, type DayFigures } from "./day-figures";
import { addHourDriving, closeHourBefore, type HourDriving, type OpenHour } from "./hour-driving";

/**
 * Per-vehicle, per-day rollups for reports (docs/decisions/0020-report-rollups.md): a pure fold
 * of (state, accepted fix) -> (state, changed day rows), run where ingestion runs, so a report
 * of a month reads 30 rows per vehicle instead of a month of positions.
 *
 * Days are calendar days in the workspace's time zone. The time and distance between two fixes
 * belong to the interval between them and are split at local midnight in proportion to time, so
 * a drive across midnight (or across a daylight-saving change: a 23- or 25-hour day) is counted
 * on both days, and the days add up to the whole.
 */

/** A fix as ingestion accepted it (SI units; the device's odometer in metres; fuel in percent). */
export interface RollupFix extends Pick<
  Fix,
  "time" | "latitude" | "longitude" | "speed" | "ignition" | "accuracy" | "odometer" | "fuel"
> {
  /** The timeline event (trip, stop or tow) the detector has open once this fix is folded in. */
  event: { id: string; type: VehicleEventType; startTime: number };
}

/**
 * One timeline event's figures by the same rule as the days, so a trip's distance in the Trips
 * report and the days' distance in the Summary are one measurement cut two ways.
 */
export interface EventRollup {
  id: string;
  type: VehicleEventType;
  distanceMetres: number;
  /** m/s */
  maxSpeed: number;
  idlingSeconds: number;
}

/** One vehicle's day: what the Summary and Daily reports add up. */
export interface DayRollup extends DayFigures {
  /** local date, YYYY-MM-DD */
  day: string;
}

export interface RollupState {
  timeZone: string;
  last: RollupFix | null;
  /** the GPS odometer: the same rule as the vehicle page (domain/fold/gps-odometer.ts) */
  gps: OdometerState;
  /** the device's last odometer value, once it has sent one */
  deviceOdometer: number | null;
  lastFuel: number | null;
  speeding: boolean;
  /** the event being added to */
  event: EventRollup | null;
  /**
   * What the detector will hand to the next event: metres driven since the vehicle began moving
   * during a stop (a trip is recognised 200 m after it began) and idling since a trip last moved
   * (a stop is recognised 3 minutes after it began).
   */
  carry: { metres: number; idlingSeconds: number };
  /** the day being added to, and its bounds (so most fixes need no time-zone arithmetic) */
  current: DayRollup | null;
  currentStart: number;
  currentEnd: number;
  /** the local hour driving is being added to (docs/decisions/0097); absent in a state kept before it */
  hour?: OpenHour | null;
}

/** Over this a vehicle is speeding (no posted limits here: one fleet-wide threshold, ADR 0020). */
export const SPEEDING_MPH = 70;
export const SPEEDING_MS = mphToMetresPerSecond(SPEEDING_MPH);
/** An episode ends once the speed drops this far under the threshold, so hovering is one episode. */
export const SPEEDING_HYSTERESIS_MS = mphToMetresPerSecond(5);

export function initialRollup(timeZone: string): RollupState {
  return {
    timeZone,
    last: null,
    gps: initialOdometer(false),
    deviceOdometer: null,
    lastFuel: null,
    speeding: false,
    event: null,
    carry: { metres: 0, idlingSeconds: 0 },
    current: null,
    currentStart: 0,
    currentEnd: 0,
    hour: null,
  };
}

const emptyDay = (day: string): DayRollup => ({ day, ...noFigures() });

/** Working copy of the state during one fold step; `done` collects days, events and hours left behind. */
interface Step {
  state: RollupState;
  done: DayRollup[];
  doneEvents: EventRollup[];
  doneHours: HourDriving[];
}

/** Makes `time`'s day the current one (emitting the one it leaves). */
function enterDayOf(step: Step, time: number): DayRollup {
  const s = step.state;
  if (s.current && time >= s.currentStart && time < s.currentEnd) return s.current;
  if (s.current) step.done.push(s.current);
  const day = dayOf(time, s.timeZone);
  s.current = emptyDay(day);
  s.currentStart = startOfDay(day, s.timeZone);
  s.currentEnd = endOfDay(day, s.timeZone);
  return s.current;
}

/** Makes the detector's open event the current one; true when it is new. */
function enterEvent(step: Step, event: RollupFix["event"]): boolean {
  const s = step.state;
  if (s.event?.id === event.id) return false;
  const next: EventRollup = { id: event.id, type: event.type, distanceMetres: 0, maxSpeed: 0, idlingSeconds: 0 };
  if (s.event) {
    // The stretch the detector took to recognise the change belongs to the new event.
    const previous = { ...s.event };
    if (previous.type === "STOP" && next.type !== "STOP") {
      previous.distanceMetres -= s.carry.metres;
      next.distanceMetres += s.carry.metres;
    } else if (previous.type !== "STOP" && next.type === "STOP") {
      previous.idlingSeconds -= s.carry.idlingSeconds;
      next.idlingSeconds += s.carry.idlingSeconds;
    }
    step.doneEvents.push(previous);
  }
  s.event = next;
  s.carry = { metres: 0, idlingSeconds: 0 };
  return true;
}

/**
 * Metres between the last fix and this one: the device's odometer where it sends one, else the
 * GPS odometer. Over a long silence GPS gives only a straight line: not counted (ADR 0020).
 */
function stepMetres(s: RollupState, fix: RollupFix, gps: OdometerState, seconds: number): number {
  if (fix.odometer !== null) {
    const previous = s.deviceOdometer;
    if (previous === null) return 0;
    const delta = fix.odometer - previous;
    // A reset or a wild jump of the device's counter is not distance driven.
    return delta >= 0 && delta <= MAX_PLAUSIBLE_SPEED_MS * Math.max(seconds, 1) ? delta : 0;
  }
  // A device that sends an odometer at times: its next value covers this stretch.
  if (gps.deviceOdometer || s.deviceOdometer !== null) return 0;
  if (seconds * 1000 > GAP_MS) return 0;
  return gps.metres - s.gps.metres;
}

type IntervalKind = "driving" | "idling" | "parked";

/** Adds an interval's time and distance to the days it covers, split at local midnight, and to its event. */
function spread(step: Step, from: number, to: number, metres: number, kind: IntervalKind, countTime: boolean) {
  const total = to - from;
  const { event, carry } = step.state;
  event!.distanceMetres += metres;
  if (countTime && kind === "idling") event!.idlingSeconds += total / 1000;
  if (event!.type === "STOP") carry.metres = kind === "driving" ? carry.metres + metres : 0;
  else
    carry.idlingSeconds =
      kind === "idling" && countTime
        ? carry.idlingSeconds + total / 1000
        : kind === "driving"
          ? 0
          : carry.idlingSeconds;
  let at = from;
  while (at < to) {
    const day = enterDayOf(step, at);
    const until = Math.min(to, step.state.currentEnd);
    const share = (until - at) / total;
    day.distanceMetres += metres * share;
    if (kind === "driving") day.movingMetres += metres * share;
    if (countTime && kind === "driving") {
      day.drivingSeconds += (until - at) / 1000;
      const bounds = { day: day.day, start: step.state.currentStart, end: step.state.currentEnd };
      const stretch = { from: at, to: until, metres: metres * share };
      step.state.hour = addHourDriving(step.state.hour ?? null, stretch, bounds, step.state.timeZone, step.doneHours);
    }
    if (countTime && kind === "idling") day.idlingSeconds += (until - at) / 1000;
    at = until;
  }
}

/** How the vehicle spent the interval before `fix`: judged by both ends' speeds, else by the distance covered. */
function intervalKind(last: RollupFix, fix: RollupFix, metres: number, seconds: number): IntervalKind {
  const speeds = [last.speed, fix.speed].filter((v): v is number => v !== null);
  const speed = speeds.length ? speeds.reduce((a, b) => a + b, 0) / speeds.length : metres / seconds;
  if (speed > MOVING_SPEED_MS) return "driving";
  return last.ignition === true ? "idling" : "parked";
}

/** Speeding episodes (counted on the day they begin), the top speed, and fuel drops. */
function countFixAlone(step: Step, fix: RollupFix) {
  const s = step.state;
  const day = enterDayOf(step, fix.time);
  const speed = fix.speed ?? 0;
  if (speed > MOVING_SPEED_MS) {
    day.maxSpeed = Math.max(day.maxSpeed, speed);
    s.event!.maxSpeed = Math.max(s.event!.maxSpeed, speed);
  }
  if (!s.speeding && speed > SPEEDING_MS) {
    s.speeding = true;
    day.speedingEpisodes++;
  } else if (s.speeding && speed < SPEEDING_MS - SPEEDING_HYSTERESIS_MS) {
    s.speeding = false;
  }
  if (fix.fuel !== null) {
    const drop = s.lastFuel !== null && fix.fuel < s.lastFuel ? s.lastFuel - fix.fuel : 0;
    day.fuelUsedPercent = (day.fuelUsedPercent ?? 0) + drop;
    s.lastFuel = fix.fuel;
  }
}

/** What one fix changes: the new state, the day and event rows, and the hours of driving now over. */
export interface RollupStep {
  state: RollupState;
  rows: DayRollup[];
  events: EventRollup[];
  /** each hour handed on once, when a later fix falls past it (domain/reports/hour-driving.ts) */
  hours: HourDriving[];
}

/**
 * Folds one accepted fix (in time order) into the rollup. Returns the new state, every day row
 * and every event row that changed, whole (upserting each is idempotent). A fix not newer than
 * the last one changes nothing: ingestion keeps late reports out of the derived state.
 */
export function advanceRollup(state: RollupState, fix: RollupFix, timeZone: string): RollupStep {
  if (state.last && fix.time <= state.last.time) return { state, rows: [], events: [], hours: [] };
  const s: RollupState = {
    ...state,
    timeZone,
    current: state.current && { ...state.current },
    event: state.event && { ...state.event },
    carry: { ...state.carry },
  };
  if (timeZone !== state.timeZone && s.current) {
    // The workspace moved to another zone: the day being added to ends at its midnight there.
    s.currentStart = startOfDay(s.current.day, timeZone);
    s.currentEnd = endOfDay(s.current.day, timeZone);
  }
  const step: Step = { state: s, done: [], doneEvents: [], doneHours: [] };
  const gps = advanceOdometer(state.gps, fix);
  const last = state.last;
  enterDayOf(step, last?.time ?? fix.time);
  // The interval up to this fix belongs to the event the detector has open after it: a trip
  // that starts here includes the step that showed it left, as the detector counts it.
  const newEvent = enterEvent(step, fix.event);
  if (last) {
    const seconds = (fix.time - last.time) / 1000;
    const metres = stepMetres(state, fix, gps, seconds);
    // Over a long silence where it was, and whether the engine ran, is unknown: no time is counted.
    spread(step, last.time, fix.time, metres, intervalKind(last, fix, metres, seconds), seconds * 1000 <= GAP_MS);
  }
  countFixAlone(step, fix);
  // Counted on the day of the fix that shows it: the day it began, except for one that began
  // just before midnight and was recognised after (a stop is recognised 3 minutes late).
  if (newEvent) s.current![fix.event.type === "STOP" ? "stops" : "trips"]++;
  s.gps = gps;
  if (fix.odometer !== null) s.deviceOdometer = fix.odometer;
  s.last = { ...fix };
  s.hour = closeHourBefore(s.hour ?? null, fix.time, step.doneHours);
  return {
    state: s,
    rows: [...step.done, { ...s.current! }],
    events: [...step.doneEvents, { ...s.event! }],
    hours: step.doneHours,
  };
}

/**
 * The seam ingestion calls, once per vehicle per batch: the previous state (null for a vehicle
 * never rolled up), the batch's accepted fixes in time order, the workspace's time zone -> the
 * new state, the day rows and the event rows to upsert (each once, its latest version).
 */
export function rollupFixes(state: RollupState | null, fixes: readonly RollupFix[], timeZone: string): RollupStep {
  let current = state ?? initialRollup(timeZone);
  const rows = new Map<string, DayRollup>();
  const events = new Map<string, EventRollup>();
  const hours: HourDriving[] = [];
  for (const fix of fixes) {
    const next = advanceRollup(current, fix, timeZone);
    current = next.state;
    for (const row of next.rows) rows.set(row.day, row);
    for (const event of next.events) events.set(event.id, event);
    hours.push(...next.hours);
  }
  return { state: current, rows: [...rows.values()], events: [...events.values()], hours };
}
