import type { DeviceApp } from "../../shared/fleet/beacon-health";
import type { Telemetry } from "../../shared/fleet/telemetry";
import { judgeClock, SKEW_WORTH_SHOWING_MS, type ClockBounds, type ClockVerdict } from "./device-clock";
import { advanceOdometer, initialOdometer, odometerReading, type OdometerState } from "./gps-odometer";
import { advance, eventIdOf, initialState, statusOf, type EventUpsert, type MotionState, type NewId } from "./motion";
import type { FuelEventChange } from "../fuel/level-watch";

/**
 * A vehicle's live state as a pure fold over its reports (docs/decisions/0016): what ingestion
 * reads, folds every accepted report into with `foldReport`, and writes back. The holder of the
 * state, the workspace's Durable Object (party/live-fleet/live-fleet.ts, keeping it in memory and in its
 * own SQLite), only reads, folds and writes: every rule about what a report means lives here.
 *
 * Extensible: a FleetModule (places and alerts, daily rollups, engine hours) keeps its own
 * per-vehicle state in `modules[name]` and returns rows for D1 tables; adding one is one entry in
 * domain/fleet-modules.ts (the list the object passes as `FoldContext.modules`) and its table's
 * entry in party/live-fleet/flush-tables.ts.
 */

/** One position report as the fold sees it (domain/devices/osmand.ts's Report is one). */
export interface Fix {
  /** device time, ms since epoch */
  time: number;
  latitude: number;
  longitude: number;
  /** m/s */
  speed: number | null;
  heading: number | null;
  /** metres, as the device reports it */
  accuracy: number | null;
  ignition: boolean | null;
  /** fuel level, percent of the tank */
  fuel: number | null;
  /** the device's own odometer (metres), if it sent one */
  odometer: number | null;
}

/** One position report of one device, as the edge parses it (domain/devices/osmand.ts). */
export interface BeaconReport extends Fix {
  deviceId: string;
  /** The app or protocol that sent it, shown on its beacon (shared/fleet/beacon-health.ts). */
  app?: DeviceApp;
  altitude: number | null;
  battery: number | null;
}

/** What the vehicle shows: its synced telemetry (shared/fleet/telemetry.ts), without the ids. */
export type Latest = Omit<Telemetry, "id" | "vehicleId">;

export interface VehicleFold {
  vehicleId: string;
  workspaceId: string;
  latest: Latest | null;
  motion: MotionState | null;
  odometer: OdometerState | null;
  /** The vehicle's beacon shows ACTIVE. */
  active: boolean;
  /** Each plugged module's own state, by its name. */
  modules: Record<string, unknown>;
  /** The workspace's time zone (IANA), for modules that count days (report rollups); UTC when unknown. */
  timeZone?: string;
}

/** A row a module wants upserted into a D1 table (registered in party/live-fleet/flush-tables.ts). */
export interface FlushRow {
  table: string;
  row: Record<string, unknown>;
  /**
   * The row opens something with an id of its own (an alert): a re-fold after a late report gives
   * the same `key` the same `id` again (domain/fold/late-reports.ts), and writes `void` instead when it
   * no longer opens it. Ignored by the flush.
   */
  opens?: { key: string; id: string; void: Record<string, unknown> };
}

/** What a module sees of an accepted report: the fix and what the core fold made of it. */
export interface AcceptedFix {
  fix: Fix;
  vehicleId: string;
  workspaceId: string;
  /** The vehicle's state before and after this fix (core part). */
  before: Latest | null;
  after: Latest;
  /** Events this fix opened, updated or closed. */
  events: EventUpsert[];
  /** The workspace's time zone (IANA). */
  timeZone: string;
  /**
   * Set when this fix is folded again because a late report came before it (domain/fold/late-reports.ts):
   * a module whose rows are written only on change writes its whole value, and one that names
   * what it opens takes the name the superseded fold gave (so nothing is delivered twice).
   */
  replay?: Replay;
  /** Refuels and drops an earlier module (the fuel watch) opened, grew or ended on this fix. */
  fuelEvents?: readonly FuelEventChange[];
}

/** The names the superseded folds gave, handed out again in the order they were given. */
export interface Replay {
  /** `key` says what is named (an event's type, an alert's rule); `fresh` is the name it would get. */
  reuse(key: string, fresh: string): string;
  /** Whether the superseded folds gave this name (what they opened was delivered already). */
  given(id: string): boolean;
}

export interface FleetModule<S = unknown> {
  /** Unique; keys the module's state in `VehicleFold.modules` (stored with the vehicle). */
  readonly name: string;
  /** Folds one accepted, in-order fix (never a late, duplicate or clock-rejected one). */
  step(state: S | undefined, fix: AcceptedFix, now: number): ModuleStep<S>;
}

export interface ModuleStep<S> {
  state: S;
  rows?: FlushRow[];
  /** What the fuel watch saw on this fix: handed to the modules after it (the alert rules). */
  fuelEvents?: FuelEventChange[];
}

export interface FoldContext {
  /** The server's clock. */
  now: number;
  clock: ClockBounds;
  modules?: readonly FleetModule[];
  /** How new events are named (default: from the vehicle, start and type, eventIdOf). */
  newId?: NewId;
  /** Set while re-folding after a late report (domain/fold/late-reports.ts). */
  replay?: Replay;
}

export type FoldOutcome = "stored" | "late" | Exclude<ClockVerdict, "ok">;

export interface FoldOutputs {
  /** What the caller is answered: a late report folded in order still answers "late". */
  outcome: FoldOutcome;
  /** The fix went into the vehicle's derived state (trips, odometer, modules). */
  folded: boolean;
  /** The fix goes into the vehicle's history (stored or late). */
  keep: boolean;
  /** The device's clock is ahead by this much (worth showing on its beacon), or null. */
  skewMs: number | null;
  /** Events opened, updated or closed, each at most once per fix. */
  events: EventUpsert[];
  /** The event ids this fix opened (a new event may push old ones out of the synced set). */
  opened: string[];
  /** The beacon just became ACTIVE. */
  activated: boolean;
  /** Rows the modules want written to D1. */
  rows: FlushRow[];
  /** Events a re-fold after a late report no longer produces (domain/fold/late-reports.ts). */
  dropped: string[];
}

const none = (outcome: FoldOutcome, skewMs: number | null, keep = false): FoldOutputs => ({
  outcome,
  folded: false,
  keep,
  skewMs,
  events: [],
  opened: [],
  activated: false,
  rows: [],
  dropped: [],
});

/**
 * Folds one report (a vehicle's reports in time order, duplicates already taken out) into its
 * state. A report whose device clock is out of bounds is acknowledged and not used; one older
 * than what the vehicle shows is late (kept in the history, no move back).
 */
export function foldReport(
  vehicle: VehicleFold,
  fix: Fix,
  ctx: FoldContext,
): { vehicle: VehicleFold; outputs: FoldOutputs } {
  const skewMs = fix.time - ctx.now >= SKEW_WORTH_SHOWING_MS ? fix.time - ctx.now : null;
  const verdict = judgeClock(fix.time, ctx.now, ctx.clock);
  if (verdict !== "ok") return { vehicle, outputs: none(verdict, skewMs) };
  const previous = vehicle.latest;
  if (previous && fix.time <= previous.recordedAt) return { vehicle, outputs: none("late", skewMs, true) };

  const { point, detected } = detect(vehicle, fix, ctx.newId ?? eventIdOf(vehicle.vehicleId));
  const status = statusOf(point, detected.state);
  const odometer = advanceOdometer(vehicle.odometer ?? initialOdometer(previous?.odometer != null), fix);
  const latest: Latest = {
    status,
    statusTimestamp: previous && previous.status === status ? previous.statusTimestamp : fix.time,
    speed: fix.speed ?? 0,
    // The device's odometer wins; trackers that send none get the GPS distance (gps-odometer.ts).
    odometer: odometerReading(odometer, fix.odometer, previous?.odometer ?? null),
    // Trackers that do not report fuel keep the last known value.
    fuel: fix.fuel ?? previous?.fuel ?? null,
    latitude: fix.latitude,
    longitude: fix.longitude,
    heading: fix.heading,
    recordedAt: fix.time,
  };
  const known = vehicle.motion?.current.id;
  const opened = detected.events.filter((e) => e.id !== known).map((e) => e.id);
  const core = { ...vehicle, latest, motion: detected.state, odometer, active: true };
  const accepted: AcceptedFix = {
    fix,
    vehicleId: vehicle.vehicleId,
    workspaceId: vehicle.workspaceId,
    before: previous,
    after: latest,
    events: detected.events,
    timeZone: vehicle.timeZone ?? "UTC",
    ...(ctx.replay && { replay: ctx.replay }),
  };
  const { modules, rows } = stepModules(vehicle.modules, accepted, ctx);
  return {
    vehicle: { ...core, modules },
    outputs: {
      outcome: "stored",
      folded: true,
      keep: true,
      skewMs,
      events: detected.events,
      opened,
      activated: !vehicle.active,
      rows,
      dropped: [],
    },
  };
}

/** The trip detector's step for the fix (events named by `newId`). */
function detect(vehicle: VehicleFold, fix: Fix, newId: NewId) {
  const { latitude, longitude, time, speed, ignition } = fix;
  const point = { latitude, longitude, time, speed, ignition };
  return { point, detected: vehicle.motion ? advance(vehicle.motion, point, newId) : initialState(point, newId) };
}

/** Every plugged module folds the accepted fix into its own state, in the order given. */
function stepModules(states: Record<string, unknown>, fix: AcceptedFix, ctx: FoldContext) {
  if (!ctx.modules?.length) return { modules: states, rows: [] as FlushRow[] };
  const modules = { ...states };
  const rows: FlushRow[] = [];
  let accepted = fix;
  for (const module of ctx.modules) {
    const next = module.step(modules[module.name], accepted, ctx.now);
    modules[module.name] = next.state;
    if (next.rows) rows.push(...next.rows);
    if (next.fuelEvents?.length)
      accepted = { ...accepted, fuelEvents: [...(accepted.fuelEvents ?? []), ...next.fuelEvents] };
  }
  return { modules, rows };
}

/** A vehicle nothing is known about yet (its first report starts its state). */
export function newVehicleFold(vehicleId: string, workspaceId: string): VehicleFold {
  return { vehicleId, workspaceId, latest: null, motion: null, odometer: null, active: false, modules: {} };
}
