import type { TelemetryStatus } from "../../shared/fleet/telemetry";
import { distanceMetres } from "../../shared/units/geo";
import type { TimelineEventType, VehicleEventType } from "../../shared/fleet/vehicle-event";

/**
 * Trip, stop and tow detection from a vehicle's positions, as a pure function of (state, report),
 * so it is tested on recorded tracks and survives restarts (the state is stored per vehicle).
 * Traccar's defaults (docs/decisions/0005-trip-stop-detection.md):
 * - motion starts once the vehicle is more than 200 m from the point where it stopped;
 * - a stop starts once every position for 180 s stays within 200 m of the first of them;
 * - a gap over 3,600 s with no data counts as a stop, lasting until the next report;
 * - moving with the ignition off is a tow.
 */
export const MOTION_DISTANCE_M = 200;
export const STOP_DURATION_MS = 180_000;
export const GAP_MS = 3_600_000;
/** Below this a vehicle with its ignition on is idling (about 2 mph). */
export const MOVING_SPEED_MS = 1;

export interface Point {
  latitude: number;
  longitude: number;
  time: number;
}

export interface OpenEvent {
  id: string;
  type: VehicleEventType;
  startTime: number;
  latitude: number;
  longitude: number;
  /** metres travelled so far (TRANSIT/TOW) */
  distance: number;
}

export interface MotionState {
  mode: "stopped" | "moving";
  /** STOP: where the vehicle stopped. Moving: the first point of a possible stop. */
  anchor: Point;
  /** Moving: the trip's distance when it reached `anchor` (what it travelled if it stops there). */
  anchorDistance?: number;
  last: Point & { ignition: boolean | null };
  current: OpenEvent;
}

export interface MotionReport extends Point {
  speed: number | null;
  ignition: boolean | null;
}

/** An event to insert or update; `endTime` null while it goes on. */
export interface EventUpsert extends OpenEvent {
  endTime: number | null;
  averageSpeed: number | null;
}

/** Names a new event: from its start and type (the fold adds the vehicle: domain/fold/fold.ts). */
export type NewId = (startTime: number, type: TimelineEventType) => string;

/**
 * Event ids sort by start time (base36, zero-padded), then a hash of the vehicle and the event's
 * type: the same fixes folded again give the same ids (a late report folded in order re-folds
 * the reports after it, docs/decisions/0037), where a random tail made every re-fold a new trip.
 * A vehicle starts at most one event of a type at one millisecond.
 */
export function eventIdOf(vehicleId: string): NewId {
  return (startTime, type) => {
    let hash = 0x811c9dc5;
    for (const ch of `${vehicleId}|${type}`) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    return `${Math.max(0, Math.round(startTime)).toString(36).padStart(9, "0")}-${hash.toString(36).padStart(7, "0")}`;
  };
}

/** Ids for a caller with no vehicle to name (tests): start time and type alone. */
export const eventId: NewId = eventIdOf("");

export { distanceMetres };

function open(type: VehicleEventType, at: Point, newId: NewId): OpenEvent {
  return {
    id: newId(at.time, type),
    type,
    startTime: at.time,
    latitude: at.latitude,
    longitude: at.longitude,
    distance: 0,
  };
}

function close(event: OpenEvent, endTime: number): EventUpsert {
  const seconds = (endTime - event.startTime) / 1000;
  const travelling = event.type !== "STOP";
  return { ...event, endTime, averageSpeed: travelling && seconds > 0 ? event.distance / seconds : null };
}

/** The open event, still without an end; a trip's average speed so far runs to the latest report. */
function ongoing(event: OpenEvent, latest: number): EventUpsert {
  return { ...close(event, latest), endTime: null };
}

const travelType = (ignition: boolean | null): VehicleEventType => (ignition === false ? "TOW" : "TRANSIT");

/** The first report of a vehicle: moving if it is fast, otherwise parked. */
export function initialState(
  report: MotionReport,
  newId: NewId = eventId,
): { state: MotionState; events: EventUpsert[] } {
  const moving = (report.speed ?? 0) > MOVING_SPEED_MS;
  const current = open(moving ? travelType(report.ignition) : "STOP", report, newId);
  const state: MotionState = { mode: moving ? "moving" : "stopped", anchor: report, last: report, current };
  if (moving) state.anchorDistance = 0;
  return { state, events: [ongoing(current, report.time)] };
}

/** The fold's working copy while one report is folded: the state's fields and the events so far. */
interface Step {
  mode: MotionState["mode"];
  anchor: Point;
  anchorDistance: number | undefined;
  current: OpenEvent;
  events: EventUpsert[];
}

/** Folds one report (in time order) into the state; returns the events that changed. */
export function advance(
  state: MotionState,
  report: MotionReport,
  newId: NewId = eventId,
): { state: MotionState; events: EventUpsert[] } {
  const last = state.last;
  const step: Step = { ...state, anchorDistance: state.anchorDistance, events: [] };
  // A long silence is a stop where the vehicle was last seen, lasting until it reports again.
  const gap = report.time - last.time > GAP_MS;
  if (gap && step.mode === "moving") stopAt(step, last, last.time, newId);
  if (step.mode === "stopped") leaveIfGone(step, last, report, gap, newId);
  else driveOn(step, last, report, newId);

  const { mode, anchor, current, anchorDistance, events } = step;
  const next: MotionState = { mode, anchor, current, last: { ...report } };
  if (mode === "moving" && anchorDistance !== undefined) next.anchorDistance = anchorDistance;
  // The open event is always reported too, so its distance and position stay current.
  if (!events.some((e) => e.id === current.id)) events.push(ongoing(current, report.time));
  return { state: next, events };
}

/** Closes the open event at `at` and opens a stop at `where`. */
function stopAt(step: Step, where: Point, at: number, newId: NewId) {
  step.events.push(close(step.current, at));
  step.current = open("STOP", where, newId);
  step.mode = "stopped";
  step.anchor = where;
}

/** Standing: it left once it is farther than the motion distance from the stop point. */
function leaveIfGone(step: Step, last: MotionState["last"], report: MotionReport, gap: boolean, newId: NewId) {
  if (distanceMetres(step.anchor, report) <= MOTION_DISTANCE_M) return;
  // The stop ended when it was last seen near the stop point, or, after a silence, when it
  // reported again (where it was in between is unknown).
  const departed = gap ? report : last;
  step.events.push(close(step.current, departed.time));
  step.current = open(travelType(report.ignition), departed, newId);
  step.current.distance = distanceMetres(departed, report);
  step.mode = "moving";
  step.anchor = report;
  step.anchorDistance = step.current.distance;
}

/** Moving: the distance grows; a tow begins or ends; staying near one point long enough is a stop. */
function driveOn(step: Step, last: MotionState["last"], report: MotionReport, newId: NewId) {
  step.current = { ...step.current, distance: step.current.distance + distanceMetres(last, report) };
  const moving = (report.speed ?? 0) > MOVING_SPEED_MS;
  const type = travelType(report.ignition);
  if (moving && report.ignition !== null && report.ignition === last.ignition && step.current.type !== type) {
    // The engine went off but the vehicle keeps moving: from here on it is being towed (or, the
    // other way round, the tow is over and it drives on its own). Two reports in a row must
    // agree, so rolling to a halt just after switching off is not a tow.
    step.events.push(close(step.current, report.time));
    step.current = open(type, report, newId);
    step.anchorDistance = 0;
    step.anchor = report;
  }
  if (distanceMetres(step.anchor, report) > MOTION_DISTANCE_M) {
    step.anchor = report;
    step.anchorDistance = step.current.distance;
  } else if (report.time - step.anchor.time >= STOP_DURATION_MS) {
    // Everything since `anchor` stayed within 200 m for 3 minutes: it stopped at `anchor`.
    // (GPS jitter while standing does not count as distance travelled.)
    const travelled = step.anchorDistance ?? Math.max(0, step.current.distance - distanceMetres(step.anchor, report));
    step.current = { ...step.current, distance: travelled };
    stopAt(step, step.anchor, step.anchor.time, newId);
    step.anchorDistance = undefined;
  }
}

/**
 * The vehicle's status for its telemetry: off (ignition off, shown as Parked), towing (moving
 * with the ignition off), moving, or idle (ignition on, standing).
 */
export function statusOf(report: MotionReport, state: MotionState): TelemetryStatus {
  const moving = (report.speed ?? 0) > MOVING_SPEED_MS || state.mode === "moving";
  if (report.ignition === false) return (report.speed ?? 0) > MOVING_SPEED_MS ? "towing" : "off";
  if (report.ignition === true) return (report.speed ?? 0) > MOVING_SPEED_MS ? "moving" : "idle";
  // Trackers without an ignition wire: parked when stopped, moving otherwise.
  return moving ? "moving" : "off";
}
