import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { SYNCED_EVENTS_PER_VEHICLE } from "../../shared/vehicle-event";
import type { Db } from "../db/client";
import { beacons, motionState, positions, telemetry, vehicleEvents, vehicles } from "../db/schema";
import { chunkRows } from "../lib/chunk";
import { bumpVersion, versionOf } from "../sync/version";
import type { NewStop } from "./geocode";
import { advance, initialState, statusOf, type EventUpsert, type MotionState } from "./motion";
import { ReportError, type Report } from "./osmand";

export type IngestOutcome = "stored" | "duplicate" | "late";

/**
 * Stores one beacon's reports (oldest first). Per report, one batch of reads and one batch of
 * writes (two D1 round trips): the position, the vehicle's telemetry, its beacon status, the
 * detector's state and the timeline events, all stamped with the workspace's new version. The beacon's own workspace scopes every
 * write: a device id can only ever write into the workspace that ordered it.
 * Returns the workspace to poke, or null when nothing visible changed.
 */
export async function ingest(db: Db, reports: Report[], now = Date.now()) {
  const deviceId = reports[0]!.deviceId;
  // Every read goes through the beacon's own row, so one batch (one D1 round trip) finds the
  // beacon and its vehicle's state together: D1 runs one query at a time, round trips are the cost.
  const vehicleOfBeacon = db.select({ id: beacons.vehicleId }).from(beacons).where(eq(beacons.id, deviceId));
  const outcomes: IngestOutcome[] = [];
  const stops: NewStop[] = [];
  let scope: { workspaceId: string; vehicleId: string } | null = null;
  let changed = false;

  for (const report of [...reports].sort((a, b) => a.time - b.time)) {
    const [beacon, dup, latest, motion, vehicle] = await db.batch([
      db.select({ workspaceId: beacons.workspaceId, vehicleId: beacons.vehicleId }).from(beacons).where(eq(beacons.id, deviceId)),
      db.select({ t: positions.recordedAt }).from(positions).where(and(eq(positions.beaconId, deviceId), eq(positions.recordedAt, report.time))),
      db.select().from(telemetry).where(inArray(telemetry.vehicleId, vehicleOfBeacon)),
      db.select().from(motionState).where(inArray(motionState.vehicleId, vehicleOfBeacon)),
      db.select({ beaconStatus: vehicles.beaconStatus }).from(vehicles).where(inArray(vehicles.id, vehicleOfBeacon)),
    ]);
    if (!beacon[0]) throw new ReportError("Unknown device id");
    scope = beacon[0];
    const { workspaceId, vehicleId } = scope;
    if (dup.length) {
      outcomes.push("duplicate");
      continue;
    }
    const position = db.insert(positions).values({
      beaconId: deviceId,
      recordedAt: report.time,
      workspaceId,
      vehicleId,
      latitude: report.latitude,
      longitude: report.longitude,
      speed: report.speed,
      heading: report.heading,
      altitude: report.altitude,
      accuracy: report.accuracy,
      battery: report.battery,
      ignition: report.ignition,
      fuel: report.fuel,
      odometer: report.odometer,
      receivedAt: now,
    }).onConflictDoNothing();

    const previous = latest[0];
    if (previous && report.time <= previous.recordedAt) {
      // Older than what the vehicle already shows: keep it in the history, do not move it back.
      await db.batch([position]);
      outcomes.push("late");
      continue;
    }

    const point = { latitude: report.latitude, longitude: report.longitude, time: report.time, speed: report.speed, ignition: report.ignition };
    const stored = motion[0]?.state as MotionState | undefined;
    const detected = stored ? advance(stored, point) : initialState(point);
    const status = statusOf(point, detected.state);
    const statusTimestamp = previous && previous.status === status ? previous.statusTimestamp : report.time;
    const version = versionOf(workspaceId);
    const telemetryRow = {
      id: vehicleId,
      workspaceId,
      vehicleId,
      status,
      statusTimestamp,
      speed: report.speed ?? 0,
      // Trackers that do not report fuel or odometer keep the last known value.
      odometer: report.odometer ?? previous?.odometer ?? null,
      fuel: report.fuel ?? previous?.fuel ?? null,
      latitude: report.latitude,
      longitude: report.longitude,
      heading: report.heading,
      recordedAt: report.time,
      version,
    };

    const writes: BatchItem<"sqlite">[] = [
      bumpVersion(db, workspaceId),
      position,
      db.insert(telemetry).values(telemetryRow).onConflictDoUpdate({ target: telemetry.vehicleId, set: telemetryRow }),
      db.update(beacons).set({ lastReportAt: now }).where(eq(beacons.id, deviceId)),
      db
        .insert(motionState)
        .values({ vehicleId, workspaceId, state: detected.state, updatedAt: now })
        .onConflictDoUpdate({ target: motionState.vehicleId, set: { state: detected.state, updatedAt: now } }),
      ...eventWrites(db, workspaceId, vehicleId, detected.events),
    ];
    if (vehicle[0]?.beaconStatus !== "ACTIVE") {
      writes.push(db.update(vehicles).set({ beaconStatus: "ACTIVE", version }).where(eq(vehicles.id, vehicleId)));
    }
    await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
    outcomes.push("stored");
    changed = true;
    for (const e of detected.events) {
      if (e.type === "STOP" && e.id !== stored?.current.id && e.latitude !== null && e.longitude !== null) {
        stops.push({ id: e.id, workspaceId, latitude: e.latitude, longitude: e.longitude });
      }
    }
  }
  return { workspaceId: changed ? scope!.workspaceId : null, outcomes, vehicleId: scope!.vehicleId, stops };
}

function eventWrites(db: Db, workspaceId: string, vehicleId: string, events: EventUpsert[]): BatchItem<"sqlite">[] {
  if (!events.length) return [];
  const version = versionOf(workspaceId);
  const writes: BatchItem<"sqlite">[] = events.map((e) => {
    const row = {
      id: e.id,
      workspaceId,
      vehicleId,
      type: e.type,
      startTime: e.startTime,
      endTime: e.endTime,
      latitude: e.latitude,
      longitude: e.longitude,
      distance: e.type === "STOP" ? null : e.distance,
      averageSpeed: e.averageSpeed,
      version,
    };
    const { id: _id, workspaceId: _w, vehicleId: _v, ...changes } = row;
    return db.insert(vehicleEvents).values(row).onConflictDoUpdate({ target: vehicleEvents.id, set: changes });
  });
  // Only the latest events stay in the synced set; older ones are sent to clients as `del`.
  const newest = db
    .select({ id: vehicleEvents.id })
    .from(vehicleEvents)
    .where(eq(vehicleEvents.vehicleId, vehicleId))
    .orderBy(sql`${vehicleEvents.startTime} DESC`)
    .limit(SYNCED_EVENTS_PER_VEHICLE);
  writes.push(
    db
      .update(vehicleEvents)
      .set({ deleted: true, version })
      .where(and(eq(vehicleEvents.vehicleId, vehicleId), eq(vehicleEvents.deleted, false), notInArray(vehicleEvents.id, newest))),
  );
  return writes;
}

/** Beacons silent for this long stop being ACTIVE (run from the Worker's cron trigger). */
export const INACTIVE_AFTER_MS = 15 * 60_000;

export async function markSilentBeaconsInactive(db: Db, now = Date.now()) {
  const silent = await db
    .select({ vehicleId: vehicles.id, workspaceId: vehicles.workspaceId })
    .from(vehicles)
    .innerJoin(beacons, eq(beacons.vehicleId, vehicles.id))
    .where(and(eq(vehicles.beaconStatus, "ACTIVE"), sql`${beacons.lastReportAt} < ${now - INACTIVE_AFTER_MS}`))
    .all();
  const byWorkspace = new Map<string, string[]>();
  for (const s of silent) byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s.vehicleId]);
  for (const [workspaceId, ids] of byWorkspace) {
    await db.batch([
      bumpVersion(db, workspaceId),
      ...chunkRows(ids, 1).map((part) =>
        db.update(vehicles).set({ beaconStatus: "INACTIVE", version: versionOf(workspaceId) }).where(inArray(vehicles.id, part)),
      ),
    ]);
  }
  return [...byWorkspace.keys()];
}
