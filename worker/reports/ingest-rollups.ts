import { inArray, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { rollupFixes, type RollupFix, type RollupState } from "../../party/reports/rollup";
import { DEFAULT_TIME_ZONE } from "../../shared/time-zone";
import type { Db } from "../db/client";
import { eventRollups, rollupState, vehicleDayRollups, workspaces } from "../db/schema";
import { chunkRows } from "../lib/chunk";

/**
 * The report rollups inside today's ingestion batch (worker/fleet/ingest.ts): read each vehicle's
 * fold state and its workspace's time zone with the batch's reads, gather each vehicle's accepted
 * fixes in order, then ONE call per vehicle, rollupFixes(state, fixes, timeZone), and its rows go
 * out with the batch's writes. When ingestion moves into the workspace's Durable Object
 * (issue 19), that call moves into its fold as it is; only where the state is kept changes.
 */
/** A subquery selecting ids (one column), as drizzle's inArray takes it. */
type IdQuery = SQLWrapper;

export function rollupReads(db: Db, vehicleIds: IdQuery, workspaceIds: IdQuery) {
  return {
    states: db.select().from(rollupState).where(inArray(rollupState.vehicleId, vehicleIds)),
    zones: db.select({ id: workspaces.id, timeZone: workspaces.timeZone }).from(workspaces).where(inArray(workspaces.id, workspaceIds)),
  };
}

/** Per vehicle: its workspace, stored fold state, and this batch's accepted fixes in time order. */
export class RollupInputs {
  private readonly states = new Map<string, RollupState>();
  private readonly zones = new Map<string, string>();
  private readonly fixes = new Map<string, { workspaceId: string; fixes: RollupFix[] }>();

  constructor(states: { vehicleId: string; state: unknown }[], zones: { id: string; timeZone: string }[]) {
    for (const s of states) this.states.set(s.vehicleId, s.state as RollupState);
    for (const z of zones) this.zones.set(z.id, z.timeZone);
  }

  /** An accepted fix (a report, of which only the fold's fields are kept) and the detector's open event after it. */
  add(workspaceId: string, vehicleId: string, r: Omit<RollupFix, "event">, event: RollupFix["event"]) {
    let entry = this.fixes.get(vehicleId);
    if (!entry) this.fixes.set(vehicleId, (entry = { workspaceId, fixes: [] }));
    const { time, latitude, longitude, speed, ignition, accuracy, odometer, fuel } = r;
    entry.fixes.push({ time, latitude, longitude, speed, ignition, accuracy, odometer, fuel, event: { id: event.id, type: event.type, startTime: event.startTime } });
  }

  /** The fold per vehicle, and the upserts of its state, day rows and event rows. */
  writes(db: Db): BatchItem<"sqlite">[] {
    const states: (typeof rollupState.$inferInsert)[] = [];
    const days: (typeof vehicleDayRollups.$inferInsert)[] = [];
    const events: (typeof eventRollups.$inferInsert)[] = [];
    for (const [vehicleId, { workspaceId, fixes }] of this.fixes) {
      const timeZone = this.zones.get(workspaceId) ?? DEFAULT_TIME_ZONE;
      const out = rollupFixes(this.states.get(vehicleId) ?? null, fixes, timeZone);
      states.push({ vehicleId, workspaceId, state: out.state });
      for (const { day, ...figures } of out.rows) days.push({ vehicleId, workspaceId, day, ...figures });
      for (const { id, type: _type, ...figures } of out.events) events.push({ eventId: id, workspaceId, vehicleId, ...figures });
    }
    const items: BatchItem<"sqlite">[] = [];
    for (const rows of chunkRows(states, 3)) {
      items.push(db.insert(rollupState).values(rows).onConflictDoUpdate({ target: rollupState.vehicleId, set: excluded({ state: rollupState.state }) }));
    }
    const dayColumns = { ...vehicleDayRollups } as unknown as Record<string, SQLiteColumn>;
    const dayFigures = Object.fromEntries(
      ["distanceMetres", "drivingSeconds", "idlingSeconds", "movingMetres", "maxSpeed", "speedingEpisodes", "trips", "stops", "fuelUsedPercent"].map((k) => [k, dayColumns[k]!]),
    );
    for (const rows of chunkRows(days, 12)) {
      items.push(db.insert(vehicleDayRollups).values(rows).onConflictDoUpdate({ target: [vehicleDayRollups.vehicleId, vehicleDayRollups.day], set: excluded(dayFigures) }));
    }
    for (const rows of chunkRows(events, 6)) {
      items.push(
        db
          .insert(eventRollups)
          .values(rows)
          .onConflictDoUpdate({
            target: eventRollups.eventId,
            set: excluded({ distanceMetres: eventRollups.distanceMetres, maxSpeed: eventRollups.maxSpeed, idlingSeconds: eventRollups.idlingSeconds }),
          }),
      );
    }
    return items;
  }
}

/** An upsert's SET that takes each column from the row being inserted. */
function excluded(columns: Record<string, SQLiteColumn>): Record<string, SQL> {
  return Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]));
}
