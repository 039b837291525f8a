import { DEFAULT_TIME_ZONE } from "../../shared/units/time-zone";
import type { AcceptedFix, FleetModule, FlushRow } from "../fold/fold";
import { advanceRollup, initialRollup, type RollupState } from "./rollup";

/** The D1 tables the rollups flush to (registered in party/live-fleet/flush-tables.ts). */
export const DAY_ROLLUPS_TABLE = "vehicle_day_rollups";
export const EVENT_ROLLUPS_TABLE = "event_rollups";

/**
 * The report rollups as a module of the fleet fold (docs/decisions/0016, 0020): each accepted,
 * in-order fix of a vehicle, with the detector's open event after it and the workspace's time
 * zone, folded by advanceRollup; its changed day and event rows go to D1 with the batch.
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
    ];
    return { state: next.state, rows };
  },
};
