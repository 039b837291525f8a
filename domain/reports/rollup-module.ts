import { DEFAULT_TIME_ZONE } from "../../shared/units/time-zone";
import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import { advanceRollup, initialRollup, type RollupState } from "./rollup";

/** The D1 tables the rollups flush to (registered in party/live-fleet/flush-tables.ts). */
export const DAY_ROLLUPS_TABLE = "vehicle_day_rollups";
export const EVENT_ROLLUPS_TABLE = "event_rollups";
/** The workspace's driving per local day and hour (docs/decisions/0097): each vehicle's hour adds to it. */
export const HOUR_DRIVING_TABLE = "workspace_hour_driving";

/**
 * The report rollups as a module of the fleet fold (docs/decisions/0016, 0020): each accepted,
 * in-order fix of a vehicle, with the detector's open event after it and the workspace's time
 * zone, folded by advanceRollup; its changed day and event rows go to D1 with the batch, and
 * each hour of driving, once over, as the vehicle's contribution to its workspace's hour row.
 */
export const rollupModule: FleetModule<RollupState> = {
  name: "rollups",
  step(state, accepted: AcceptedFix) {
    const timeZone = accepted.timeZone || DEFAULT_TIME_ZONE;
    // The detector always reports its open event with the fix (endTime null while it goes on).
    const open = accepted.events.find((e) => e.endTime === null) ?? accepted.events.at(-1)!;
    const { fix, vehicleId, workspaceId } = accepted;
    const next = advanceRollup(
      state ?? initialRollup(timeZone),
      {
        time: fix.time,
        latitude: fix.latitude,
        longitude: fix.longitude,
        speed: fix.speed,
        ignition: fix.ignition,
        accuracy: fix.accuracy,
        odometer: fix.odometer,
        fuel: fix.fuel,
        event: { id: open.id, type: open.type, startTime: open.startTime },
      },
      timeZone,
    );
    const rows: FlushRow[] = [
      ...next.rows.map(({ day, ...figures }) => ({
        table: DAY_ROLLUPS_TABLE,
        row: { vehicleId, workspaceId, day, ...figures },
      })),
      ...next.events.map(({ id, type: _type, ...figures }) => ({
        table: EVENT_ROLLUPS_TABLE,
        row: { eventId: id, workspaceId, vehicleId, ...figures },
      })),
      // A re-fold after a late report crosses only hours the superseded fold handed on already:
      // an hour is added to its workspace's row once (a minute's difference is left as it was).
      ...(accepted.replay ? [] : next.hours).map((hour) => ({
        table: HOUR_DRIVING_TABLE,
        row: { workspaceId, vehicleId, ...hour },
      })),
    ];
    return { state: next.state, rows };
  },
};
