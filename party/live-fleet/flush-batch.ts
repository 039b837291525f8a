import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { FUEL_EVENT_TYPES, SYNCED_EVENTS_PER_VEHICLE } from "../../shared/fleet/vehicle-event";
import { firstCheckedAt } from "../../shared/costs/fuel-check";
import { bulkInsert, bulkUpdate } from "../../db/bulk";
import type { SQL } from "drizzle-orm";
import type { LiveWrites } from "../../db/client";
import { beacons, eventRollups, telemetry, vehicleEvents, vehicles } from "../../db/schema";
import { flushRows, type FlushTable } from "./flush-tables";
import type { FlushRow } from "../../domain/fold/fold";
import { healthFieldsOf, type DeviceState, type Pending } from "./live-store";
import type { EventUpsert } from "../../domain/fold/motion";

/**
 * The D1 statements of one flush of a workspace object (docs/decisions/0016, part 5), which the
 * one writer commits as ONE transaction after the workspace's version's bump (commitWrite
 * of db/writer.ts, `bump: "live"`): it writes what is pending in bulk, a handful
 * of statements whatever the number of vehicles (positions are not among them: they stay in the
 * object's own store, party/positions/): telemetry and events stamped with the new version, old events out of the synced set,
 * beacon health as absolute values, ACTIVE, and the modules' rows. Every statement is idempotent
 * (upserts of whole values, inserts that skip what exists), so a flush cut short and run again
 * after a restart writes the same rows; one exception, knowingly: the workspace's driving by hour
 * adds each vehicle's hour to its row (docs/decisions/0097), so a flush committed and run again
 * before its entries were dropped counts that flush's hours twice, metres and seconds alike.
 */
export function flushStatements(
  db: LiveWrites,
  stamp: SQL<number>,
  workspaceId: string,
  entries: Pending[],
  tables?: Record<string, FlushTable>,
): BatchItem<"sqlite">[] {
  const of = <K extends Pending["body"]["kind"]>(kind: K) =>
    entries.map((e) => e.body).filter((b): b is Extract<Pending["body"], { kind: K }> => b.kind === kind);
  const ws = { workspaceId };
  const telemetryRows = of("telemetry").map((t) => ({
    ...t.latest,
    ...ws,
    id: t.vehicleId,
    vehicleId: t.vehicleId,
    version: 0,
  }));
  const eventRows = of("event").map((e) => eventRow(workspaceId, e.vehicleId, e.event));
  const healthRows = of("beacon").map((b) => healthRow(b.device));
  const activeRows = of("active").map((a) => ({ id: a.vehicleId, beaconStatus: "ACTIVE" }));
  const moduleRows: FlushRow[] = of("row").map((r) => r.row);
  return [
    ...bulkInsert(db, telemetry, telemetryRows, {
      onConflict: { target: [telemetry.vehicleId], set: TELEMETRY_SET },
      stampVersion: telemetry.version,
    }),
    ...bulkInsert(db, vehicleEvents, eventRows, {
      onConflict: { target: [vehicleEvents.id], set: EVENT_SET },
      stampVersion: vehicleEvents.version,
    }),
    // The modules' rows before the prune: a refuel or a drop (a `vehicle_events` row) takes its place among the newest.
    ...flushRows(db, moduleRows, tables),
    ...pruneEvents(
      db,
      stamp,
      workspaceId,
      of("prune").map((p) => p.vehicleId),
    ),
    ...bulkUpdate(db, beacons, healthRows, {
      key: beacons.id,
      scope: { column: beacons.workspaceId, value: workspaceId },
    }),
    ...bulkUpdate(db, vehicles, activeRows, {
      key: vehicles.id,
      scope: { column: vehicles.workspaceId, value: workspaceId },
      stampVersion: vehicles.version,
      unless: ACTIVE,
    }),
    // Last: an event dropped after its rows were written in this same transaction still goes.
    ...dropEvents(
      db,
      stamp,
      workspaceId,
      of("dropEvent").map((d) => d.eventId),
    ),
  ];
}

/**
 * Events a re-fold after a late report no longer produces (docs/decisions/0037): sent to clients
 * as `del` (soft-deleted, stamped) and cut to no length, which the Trips and Stops reports skip
 * (worker/reports/events.ts reads soft-deleted events, as older ones leave the synced set that
 * way), and their rollup figures removed. A drop of an event D1 never had changes nothing.
 */
function dropEvents(db: LiveWrites, stamp: SQL<number>, workspaceId: string, eventIds: string[]) {
  if (!eventIds.length) return [];
  const ids = sql`(SELECT value FROM json_each(${JSON.stringify(eventIds)}))`;
  return [
    db
      .update(vehicleEvents)
      .set({ deleted: true, endTime: sql`${vehicleEvents.startTime}`, version: stamp })
      .where(and(eq(vehicleEvents.workspaceId, workspaceId), sql`${vehicleEvents.id} IN ${ids}`)),
    db
      .delete(eventRollups)
      .where(and(eq(eventRollups.workspaceId, workspaceId), sql`${eventRollups.eventId} IN ${ids}`)),
  ];
}

/**
 * Every vehicle that reported is written ACTIVE unless it already is: the object's beacon watch
 * may have made it INACTIVE (party/beacon-watch/), and an unchanged row keeps its version (no pull
 * for nothing).
 */
const ACTIVE = { column: vehicles.beaconStatus, value: "ACTIVE" };

const TELEMETRY_SET = [
  telemetry.status,
  telemetry.statusTimestamp,
  telemetry.speed,
  telemetry.odometer,
  telemetry.fuel,
  telemetry.latitude,
  telemetry.longitude,
  telemetry.heading,
  telemetry.recordedAt,
  telemetry.version,
];

/**
 * What a report changes in an event: never its vehicle, workspace or geocoded address. `deleted`
 * is written false: an event a late report's re-fold dropped and a later one makes again comes
 * back (an in-order fold writes only its vehicle's two newest events, never ones pruned from the
 * synced set; a re-fold, which may write older ones, also prunes: party/live-fleet/live-fleet.ts).
 */
const EVENT_SET = [
  vehicleEvents.deleted,
  vehicleEvents.type,
  vehicleEvents.startTime,
  vehicleEvents.endTime,
  vehicleEvents.latitude,
  vehicleEvents.longitude,
  vehicleEvents.distance,
  vehicleEvents.averageSpeed,
  vehicleEvents.version,
];

function eventRow(workspaceId: string, vehicleId: string, e: EventUpsert): typeof vehicleEvents.$inferInsert {
  const { id, type, startTime, endTime, latitude, longitude, averageSpeed } = e;
  return {
    id,
    workspaceId,
    vehicleId,
    type,
    startTime,
    endTime,
    latitude,
    longitude,
    distance: e.type === "STOP" ? null : e.distance,
    averageSpeed,
    deleted: false,
    version: 0,
  };
}

/** A beacon's health as it is now (absolute values: writing it twice is writing it once). */
function healthRow(d: DeviceState) {
  return { id: d.deviceId, ...healthFieldsOf(d) };
}

/**
 * Only the latest events of each vehicle stay in the synced set; older ones are sent to clients as
 * `del`. One statement for every vehicle that opened an event since the last flush. Refuels and
 * fuel drops of the Fuel page's checked days stay too (shared/costs/fuel-check.ts, docs/decisions/0060):
 * the browser holds fill-ups against them offline; the timeline still shows the newest three.
 */
function pruneEvents(db: LiveWrites, stamp: SQL<number>, workspaceId: string, vehicleIds: string[]) {
  if (!vehicleIds.length) return [];
  const ids = sql.raw(`'${JSON.stringify(vehicleIds).replace(/'/g, "''")}'`);
  // Correlated on the outer row's vehicle (named in full: inside the subquery a bare column is n's);
  // an event a late report's re-fold dropped (deleted, no length) takes no place among the newest.
  const newest = sql.raw(
    `SELECT n.id FROM "vehicle_events" n WHERE n.vehicle_id = "vehicle_events"."vehicle_id" AND NOT (n.deleted = 1 AND n.end_time = n.start_time) ORDER BY n.start_time DESC LIMIT ${SYNCED_EVENTS_PER_VEHICLE}`,
  );
  return [
    db
      .update(vehicleEvents)
      .set({ deleted: true, version: stamp })
      .where(
        and(
          eq(vehicleEvents.workspaceId, workspaceId),
          sql`${vehicleEvents.vehicleId} IN (SELECT value FROM json_each(${ids}))`,
          eq(vehicleEvents.deleted, false),
          sql`${vehicleEvents.id} NOT IN (${newest})`,
          sql`NOT (${vehicleEvents.type} IN (SELECT value FROM json_each(${JSON.stringify(FUEL_EVENT_TYPES)})) AND ${vehicleEvents.startTime} >= ${firstCheckedAt(Date.now())})`,
        ),
      ),
  ];
}
