import type { AcceptedFix, FleetModule, FlushRow } from "./fold";

/**
 * A vehicle's engine hours, kept by the server from the time with the ignition on, as the GPS
 * odometer is kept from the distance (docs/decisions/0032): a module of the fleet fold
 * (domain/fold/fold.ts) whose per-vehicle state is stored with the vehicle's other fold state in
 * the workspace's object, and whose total goes to `vehicles.engine_seconds` with the next flush.
 *
 * The time between two accepted fixes counts when the ignition was on at the first of them (the
 * engine ran until the next report said otherwise). A tracker that reports no ignition at all
 * counts the time its vehicle was moving instead. A gap longer than MAX_GAP_MS (the tracker was
 * off, or out of coverage) is not counted: nobody knows what the engine did, and hours are what
 * services are due by, so an undercount is the safer error.
 */
export const ENGINE_HOURS_MODULE = "engineHours";
/** The flush target (party/live-fleet/flush-tables.ts): an update of the vehicle's row, never an insert. */
export const ENGINE_HOURS_TABLE = "vehicle_engine_seconds";
export const MAX_GAP_MS = 10 * 60_000;

export interface EngineHoursState {
  /** Whole seconds with the engine on, the vehicle's total. */
  seconds: number;
  /** Time of the last accepted fix, and whether the engine ran from it (null before the first). */
  last: { time: number; on: boolean } | null;
}

export const initialEngineHours = (seconds = 0): EngineHoursState => ({ seconds, last: null });

/** Whether the engine runs at this fix: its ignition when reported, else whether the vehicle moves. */
export function engineOn(ignition: boolean | null, status: string): boolean {
  return ignition ?? status === "moving";
}

/** Folds one accepted, in-order fix into the engine hours. */
export function advanceEngineHours(state: EngineHoursState, time: number, on: boolean): EngineHoursState {
  const last = state.last;
  const gap = last ? time - last.time : 0;
  const counted = last?.on && gap > 0 && gap <= MAX_GAP_MS ? gap : 0;
  // Milliseconds carried as a fraction so many short steps add up exactly; the row gets whole seconds.
  return { seconds: state.seconds + counted / 1000, last: { time, on } };
}

export const engineHoursModule: FleetModule<EngineHoursState> = {
  name: ENGINE_HOURS_MODULE,
  step(state, accepted: AcceptedFix) {
    const before = state ?? initialEngineHours();
    const next = advanceEngineHours(before, accepted.fix.time, engineOn(accepted.fix.ignition, accepted.after.status));
    // A re-fold (a late report came before this fix) writes the total: the fold it supersedes may have written another.
    const rows: FlushRow[] =
      Math.floor(next.seconds) !== Math.floor(before.seconds) || !state || accepted.replay
        ? [
            {
              table: ENGINE_HOURS_TABLE,
              row: {
                id: accepted.vehicleId,
                workspaceId: accepted.workspaceId,
                engineSeconds: Math.floor(next.seconds),
              },
            },
          ]
        : [];
    return { state: next, rows };
  },
};
