import { and, eq, inArray, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { RejectReason } from "../../shared/beacon-health";
import { SYNCED_EVENTS_PER_VEHICLE } from "../../shared/vehicle-event";
import type { Db } from "../db/client";
import { beacons, motionState, positions, telemetry, vehicleEvents, vehicles } from "../db/schema";
import { chunkRows } from "../lib/chunk";
import { RollupInputs, rollupReads } from "../reports/ingest-rollups";
import { bumpVersion, versionOf } from "../sync/version";
import type { NewStop } from "./geocode";
import { DEFAULT_CLOCK_BOUNDS, judgeClock, SKEW_WORTH_SHOWING_MS, type ClockBounds, type ClockVerdict } from "./device-clock";
import { advanceOdometer, initialOdometer, odometerReading, type OdometerState } from "./gps-odometer";
import { advance, initialState, statusOf, type EventUpsert, type MotionState } from "./motion";
import { ReportError, type Report } from "./osmand";

export type IngestOutcome = "stored" | "duplicate" | "late" | ClockRejection;
/** Acknowledged but not used: the device's clock is off (worker/fleet/device-clock.ts). */
export type ClockRejection = Exclude<ClockVerdict, "ok">;

export interface IngestResult {
  /** The workspace to poke, or null when nothing visible changed (or another request of the same batch pokes it). */
  workspaceId: string | null;
  outcomes: IngestOutcome[];
  vehicleId: string;
  /** Stops this request opened, for the geocoder. */
  stops: NewStop[];
}

export interface IngestOptions {
  /** The server's clock. */
  now?: number;
  clock?: ClockBounds;
  /** Reports the throttle refused per device id since its last accepted request, for its health. */
  throttled?: ReadonlyMap<string, number>;
  /** Test seam: runs between an attempt's reads and its writes (to interleave two writers). */
  beforeWrite?: (attempt: number) => Promise<void>;
}

/** Attempts of a batch whose vehicle state another writer changed in between (then it gives up: 500). */
export const MAX_WRITE_ATTEMPTS = 8;

/**
 * Stores the reports of several requests (each one beacon's reports) in two D1 round trips in
 * all, however many requests and reports: one batch of reads (beacons, duplicate check,
 * telemetry, detector state and beacon status of every vehicle involved), the detector advanced
 * in memory, then one batch of writes (positions, each vehicle's final telemetry, beacon status,
 * detector state and timeline events) that bumps each touched workspace's version once and
 * stamps every synced row with it. D1 runs one query at a time, so round trips are the cost;
 * worker/fleet/ingest-batcher.ts gathers concurrent requests into one call
 * (docs/decisions/0007-ingestion-batching.md).
 *
 * The result is exactly what taking the requests one after another, in the given order, each
 * report oldest first, would give: a report already stored (or earlier in the batch) is a
 * duplicate, one older than what the vehicle shows is late (kept in the history, no move back),
 * and the detector sees each vehicle's reports in order. A report whose device clock is out of
 * bounds is acknowledged, counted on its beacon and dropped. A request whose device id is unknown
 * gets its ReportError in its slot; the others go on. The beacon's own workspace scopes every
 * write: a device id can only ever write into the workspace that ordered it. The write batch is
 * one transaction: if it fails, nothing of the batch is stored and the call rejects.
 *
 * One writer per vehicle, across isolates too (docs/decisions/0009-one-writer-per-vehicle.md):
 * each vehicle's detector state is written as the next version of the one read, and a trigger
 * aborts the whole write batch if another writer got there first; the batch then reads again and
 * retries, so the outcome is that of applying the two writers one after the other.
 */
export async function ingestBatch(db: Db, requests: Report[][], options: IngestOptions = {}): Promise<(IngestResult | ReportError)[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingestOnce(db, requests, options, attempt);
    } catch (error) {
      if (!isStaleWrite(error) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      // Another writer of one of these vehicles committed in between: read its result, go again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

/** The trigger of migrations/0002 refused a motion state write based on a stale read. */
export function isStaleWrite(error: unknown): boolean {
  const messages = [String((error as Error | undefined)?.message ?? error), String((error as { cause?: Error }).cause?.message ?? "")];
  return messages.some((m) => m.includes(STALE_MOTION_STATE));
}
const STALE_MOTION_STATE = "stale motion state";

/** What a batch changes on a beacon's row besides its last report time. */
interface BeaconHealthChange {
  clock_ahead: number;
  too_old: number;
  throttled: number;
  lastReason: RejectReason | null;
  skewMs: number | null;
}

async function ingestOnce(db: Db, requests: Report[][], options: IngestOptions, attempt: number): Promise<(IngestResult | ReportError)[]> {
  const now = options.now ?? Date.now();
  const bounds = options.clock ?? DEFAULT_CLOCK_BOUNDS;
  const deviceIds = [...new Set(requests.map((r) => r[0]!.deviceId))];
  const pairs = [...new Map(requests.flat().map((r) => [`${r.deviceId}\n${r.time}`, r])).values()];
  const idChunks = chunkRows(deviceIds, 1);
  // Every vehicle read goes through the beacons' own rows, so one round trip finds all of it.
  const vehiclesOf = (ids: string[]) => db.select({ id: beacons.vehicleId }).from(beacons).where(inArray(beacons.id, ids));
  const beaconReads = idChunks.map((ids) =>
    db.select({ id: beacons.id, workspaceId: beacons.workspaceId, vehicleId: beacons.vehicleId }).from(beacons).where(inArray(beacons.id, ids)),
  );
  const telemetryReads = idChunks.map((ids) => db.select().from(telemetry).where(inArray(telemetry.vehicleId, vehiclesOf(ids))));
  const motionReads = idChunks.map((ids) => db.select().from(motionState).where(inArray(motionState.vehicleId, vehiclesOf(ids))));
  const vehicleReads = idChunks.map((ids) =>
    db.select({ id: vehicles.id, beaconStatus: vehicles.beaconStatus }).from(vehicles).where(inArray(vehicles.id, vehiclesOf(ids))),
  );
  const duplicateReads = chunkRows(pairs, 2).map((part) =>
    db
      .select({ beaconId: positions.beaconId, t: positions.recordedAt })
      .from(positions)
      .where(or(...part.map((r) => and(eq(positions.beaconId, r.deviceId), eq(positions.recordedAt, r.time))))),
  );
  const rollupQueries = idChunks.map((ids) => rollupReads(db, vehiclesOf(ids), db.select({ id: beacons.workspaceId }).from(beacons).where(inArray(beacons.id, ids))));
  const [rollupStateReads, zoneReads] = [rollupQueries.map((q) => q.states), rollupQueries.map((q) => q.zones)];
  const reads = [...beaconReads, ...telemetryReads, ...motionReads, ...vehicleReads, ...duplicateReads, ...rollupStateReads, ...zoneReads];
  const results = (await db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  let taken = 0;
  const take = <T>(queries: unknown[]) => results.slice(taken, (taken += queries.length)).flat() as T[];
  type Rows<Q extends readonly unknown[]> = Awaited<Q[number]>;

  const beaconOf = new Map(take<Rows<typeof beaconReads>[number]>(beaconReads).map((b) => [b.id, b]));
  const latestOf = new Map(take<Rows<typeof telemetryReads>[number]>(telemetryReads).map((t) => [t.vehicleId, t]));
  const motionRowsRead = take<Rows<typeof motionReads>[number]>(motionReads);
  const motionOf = new Map(motionRowsRead.map((m) => [m.vehicleId, m.state as MotionState]));
  const motionVersionOf = new Map(motionRowsRead.map((m) => [m.vehicleId, m.version]));
  const odometerOf = new Map(motionRowsRead.filter((m) => m.odometer !== null).map((m) => [m.vehicleId, m.odometer as OdometerState]));
  const active = new Set(take<Rows<typeof vehicleReads>[number]>(vehicleReads).filter((v) => v.beaconStatus === "ACTIVE").map((v) => v.id));
  const seen = new Set(take<Rows<typeof duplicateReads>[number]>(duplicateReads).map((p) => `${p.beaconId}\n${p.t}`));
  // Report rollups (docs/decisions/0020): each vehicle's accepted fixes, folded once per batch.
  const rollups = new RollupInputs(take<Rows<typeof rollupStateReads>[number]>(rollupStateReads), take<Rows<typeof zoneReads>[number]>(zoneReads));

  // What the batch writes, folded per row: later reports of a vehicle overwrite earlier ones.
  const positionRows: (typeof positions.$inferInsert)[] = [];
  const changedWorkspaces = new Set<string>();
  const touched = new Map<string, string>(); // vehicle -> workspace, for telemetry, motion state, events
  const reported = new Set<string>(); // beacons whose lastReportAt moves
  const health = new Map<string, BeaconHealthChange>(); // beacons whose health counters move
  const activated = new Map<string, string>(); // vehicle -> workspace, newly ACTIVE
  const events = new Map<string, { workspaceId: string; vehicleId: string; event: EventUpsert }>();
  // The open event of each vehicle is already in D1; any other event id is new in this batch.
  const storedEvents = new Set([...motionOf.values()].map((state) => state.current.id));
  const prune = new Map<string, string>(); // vehicle -> workspace, where a new event may push old ones out
  const poked = new Set<string>();
  const healthOf = (deviceId: string) => {
    let h = health.get(deviceId);
    if (!h) health.set(deviceId, (h = { clock_ahead: 0, too_old: 0, throttled: 0, lastReason: null, skewMs: null }));
    return h;
  };

  const answers = requests.map((request): IngestResult | ReportError => {
    const deviceId = request[0]!.deviceId;
    const beacon = beaconOf.get(deviceId);
    if (!beacon) return new ReportError("Unknown device id");
    const { workspaceId, vehicleId } = beacon;
    const outcomes: IngestOutcome[] = [];
    const stops: NewStop[] = [];
    let changed = false;
    const throttled = options.throttled?.get(deviceId) ?? 0;
    if (throttled > 0) Object.assign(healthOf(deviceId), { throttled, lastReason: "throttled" });
    for (const report of [...request].sort((a, b) => a.time - b.time)) {
      const key = `${deviceId}\n${report.time}`;
      if (seen.has(key)) {
        outcomes.push("duplicate");
        continue;
      }
      reported.add(deviceId);
      if (report.time - now >= SKEW_WORTH_SHOWING_MS) healthOf(deviceId).skewMs = report.time - now;
      const verdict = judgeClock(report.time, now, bounds);
      if (verdict !== "ok") {
        // Acknowledged so the device's buffer moves on, never stored (Traccar's filter.future/past).
        const h = healthOf(deviceId);
        h[verdict]++;
        h.lastReason = verdict;
        outcomes.push(verdict);
        continue;
      }
      seen.add(key);
      positionRows.push({
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
      });

      const previous = latestOf.get(vehicleId);
      if (previous && report.time <= previous.recordedAt) {
        // Older than what the vehicle already shows: keep it in the history, do not move it back.
        outcomes.push("late");
        continue;
      }

      const point = { latitude: report.latitude, longitude: report.longitude, time: report.time, speed: report.speed, ignition: report.ignition };
      const stored = motionOf.get(vehicleId);
      const detected = stored ? advance(stored, point) : initialState(point);
      const status = statusOf(point, detected.state);
      const odometer = advanceOdometer(odometerOf.get(vehicleId) ?? initialOdometer(previous?.odometer != null), report);
      odometerOf.set(vehicleId, odometer);
      latestOf.set(vehicleId, {
        id: vehicleId,
        workspaceId,
        vehicleId,
        status,
        statusTimestamp: previous && previous.status === status ? previous.statusTimestamp : report.time,
        speed: report.speed ?? 0,
        // The device's odometer wins; trackers that send none get the GPS distance (gps-odometer.ts).
        odometer: odometerReading(odometer, report.odometer, previous?.odometer ?? null),
        // Trackers that do not report fuel keep the last known value.
        fuel: report.fuel ?? previous?.fuel ?? null,
        latitude: report.latitude,
        longitude: report.longitude,
        heading: report.heading,
        recordedAt: report.time,
        version: previous?.version ?? 0, // stamped with the workspace's new version when written
        deleted: false,
        createdVersion: previous?.createdVersion ?? null, // a new row's is set by a trigger (migrations/0001)
      });
      motionOf.set(vehicleId, detected.state);
      rollups.add(workspaceId, vehicleId, report, detected.state.current);
      for (const event of detected.events) {
        events.set(event.id, { workspaceId, vehicleId, event });
        if (!storedEvents.has(event.id)) prune.set(vehicleId, workspaceId);
      }
      touched.set(vehicleId, workspaceId);
      if (!active.has(vehicleId)) {
        active.add(vehicleId);
        activated.set(vehicleId, workspaceId);
      }
      changedWorkspaces.add(workspaceId);
      changed = true;
      outcomes.push("stored");
      for (const e of detected.events) {
        if (e.type === "STOP" && e.id !== stored?.current.id && e.latitude !== null && e.longitude !== null) {
          stops.push({ id: e.id, workspaceId, latitude: e.latitude, longitude: e.longitude });
        }
      }
    }
    // One poke per workspace for the whole batch: the first request that changed it sends it.
    const poke = changed && !poked.has(workspaceId);
    if (poke) poked.add(workspaceId);
    return { workspaceId: poke ? workspaceId : null, outcomes, vehicleId, stops };
  });

  if (!reported.size && !health.size) return answers;
  await options.beforeWrite?.(attempt);
  const writes: BatchItem<"sqlite">[] = [
    // Each touched workspace's version goes up once; every row below reads it back (versionOf).
    ...[...changedWorkspaces].map((ws) => bumpVersion(db, ws)),
    ...chunkRows(positionRows, 16).map((rows) => db.insert(positions).values(rows).onConflictDoNothing()),
  ];
  const telemetryRows = [...touched.keys()].map((v) => ({ ...latestOf.get(v)!, version: versionOf(touched.get(v)!) }));
  for (const rows of chunkRows(telemetryRows, 16)) {
    writes.push(db.insert(telemetry).values(rows).onConflictDoUpdate({ target: telemetry.vehicleId, set: fromExcluded(telemetryColumns) }));
  }
  const plain = [...reported].filter((id) => !health.has(id));
  for (const ids of chunkRows(plain, 1)) writes.push(db.update(beacons).set({ lastReportAt: now }).where(inArray(beacons.id, ids)));
  for (const [id, h] of health) writes.push(healthUpdate(db, id, h, reported.has(id) ? now : null, now));
  // Each vehicle's state is written as the next version of the one read (the trigger's check).
  const motionRows = [...touched].map(([vehicleId, workspaceId]) => ({
    vehicleId,
    workspaceId,
    state: motionOf.get(vehicleId)!,
    odometer: odometerOf.get(vehicleId)!,
    version: (motionVersionOf.get(vehicleId) ?? 0) + 1,
    updatedAt: now,
  }));
  for (const rows of chunkRows(motionRows, 6)) {
    writes.push(
      db
        .insert(motionState)
        .values(rows)
        .onConflictDoUpdate({
          target: motionState.vehicleId,
          set: fromExcluded({ state: motionState.state, odometer: motionState.odometer, version: motionState.version, updatedAt: motionState.updatedAt }),
        }),
    );
  }
  const eventRows = [...events.values()].map(({ workspaceId, vehicleId, event: e }) => ({
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
    version: versionOf(workspaceId),
  }));
  for (const rows of chunkRows(eventRows, 16)) {
    writes.push(db.insert(vehicleEvents).values(rows).onConflictDoUpdate({ target: vehicleEvents.id, set: fromExcluded(eventColumns) }));
  }
  // Only a new event changes which events are the newest (updates keep their start time).
  for (const [vehicleId, workspaceId] of prune) writes.push(pruneEvents(db, workspaceId, vehicleId));
  for (const workspaceId of new Set(activated.values())) {
    const ids = [...activated].filter(([, ws]) => ws === workspaceId).map(([v]) => v);
    for (const part of chunkRows(ids, 1)) {
      writes.push(db.update(vehicles).set({ beaconStatus: "ACTIVE", version: versionOf(workspaceId) }).where(inArray(vehicles.id, part)));
    }
  }
  writes.push(...rollups.writes(db));
  await db.batch(writes as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return answers;
}

/**
 * Stores one beacon's reports (oldest first) on their own: ingestBatch with one request.
 * Returns the workspace to poke, or null when nothing visible changed.
 */
export async function ingest(db: Db, reports: Report[], options: IngestOptions = {}): Promise<IngestResult> {
  const [answer] = await ingestBatch(db, [reports], options);
  if (answer instanceof ReportError) throw answer;
  return answer!;
}

/** One beacon's health counters move (rare: most batches only move lastReportAt, many beacons a statement). */
function healthUpdate(db: Db, id: string, h: BeaconHealthChange, lastReportAt: number | null, now: number) {
  const add = (column: SQLiteColumn, n: number) => sql`${column} + ${n}`;
  return db
    .update(beacons)
    .set({
      ...(lastReportAt !== null ? { lastReportAt } : {}),
      ...(h.clock_ahead ? { rejectedClockAhead: add(beacons.rejectedClockAhead, h.clock_ahead) } : {}),
      ...(h.too_old ? { rejectedTooOld: add(beacons.rejectedTooOld, h.too_old) } : {}),
      ...(h.throttled ? { rejectedThrottled: add(beacons.rejectedThrottled, h.throttled) } : {}),
      ...(h.lastReason ? { lastRejectedAt: now, lastRejectedReason: h.lastReason } : {}),
      ...(h.skewMs !== null ? { clockSkewMs: h.skewMs, clockSkewAt: now } : {}),
    })
    .where(eq(beacons.id, id));
}

/** An upsert's SET that takes each column from the row being inserted (`excluded`). */
function fromExcluded(columns: Record<string, SQLiteColumn>): Record<string, SQL> {
  return Object.fromEntries(Object.entries(columns).map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]));
}

const telemetryColumns = {
  status: telemetry.status,
  statusTimestamp: telemetry.statusTimestamp,
  speed: telemetry.speed,
  odometer: telemetry.odometer,
  fuel: telemetry.fuel,
  latitude: telemetry.latitude,
  longitude: telemetry.longitude,
  heading: telemetry.heading,
  recordedAt: telemetry.recordedAt,
  version: telemetry.version,
};

/** What a report changes in an event: never its vehicle, workspace or geocoded address. */
const eventColumns = {
  type: vehicleEvents.type,
  startTime: vehicleEvents.startTime,
  endTime: vehicleEvents.endTime,
  latitude: vehicleEvents.latitude,
  longitude: vehicleEvents.longitude,
  distance: vehicleEvents.distance,
  averageSpeed: vehicleEvents.averageSpeed,
  version: vehicleEvents.version,
};

/** Only the latest events stay in the synced set; older ones are sent to clients as `del`. */
function pruneEvents(db: Db, workspaceId: string, vehicleId: string) {
  const newest = db
    .select({ id: vehicleEvents.id })
    .from(vehicleEvents)
    .where(eq(vehicleEvents.vehicleId, vehicleId))
    .orderBy(sql`${vehicleEvents.startTime} DESC`)
    .limit(SYNCED_EVENTS_PER_VEHICLE);
  return db
    .update(vehicleEvents)
    .set({ deleted: true, version: versionOf(workspaceId) })
    .where(and(eq(vehicleEvents.vehicleId, vehicleId), eq(vehicleEvents.deleted, false), notInArray(vehicleEvents.id, newest)));
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
