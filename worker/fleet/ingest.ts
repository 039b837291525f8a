import { env } from "cloudflare:workers";
import { and, eq, inArray, notInArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { RejectReason } from "../../shared/beacon-health";
import { SYNCED_EVENTS_PER_VEHICLE } from "../../shared/vehicle-event";
import type { Db } from "../db/client";
import { beacons, motionState, telemetry, vehicleEvents, vehicles, workspaces } from "../db/schema";
import { bulkInsert } from "../db/bulk";
import { chunkRows } from "../lib/chunk";
import { bumpVersion, versionOf } from "../sync/version";
import type { NewStop } from "./geocode";
import { DEFAULT_CLOCK_BOUNDS, type ClockBounds, type ClockVerdict } from "../../party/fleet/device-clock";
import { foldReport, newVehicleFold, type FleetModule, type FlushRow, type FoldContext, type Latest, type VehicleFold } from "../../party/fleet/fold";
import type { OdometerState } from "../../party/fleet/gps-odometer";
import type { EventUpsert, MotionState } from "../../party/fleet/motion";
import { FLEET_MODULES, flushRows, type FlushTable } from "./flush-tables";
import { placesAlertsModules } from "./workspace-watch";
import { ReportError, type Report } from "./osmand";
import { workspacePositions, type PositionSink } from "../workspace-object";
import type { PositionRow } from "../../party/positions/store";

export type IngestOutcome = "stored" | "duplicate" | "late" | ClockRejection;
/** Acknowledged but not used: the device's clock is off (party/fleet/device-clock.ts). */
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
  /** The modules every accepted report is folded through, and their tables (worker/fleet/flush-tables.ts). */
  modules?: readonly FleetModule[];
  tables?: Record<string, FlushTable>;
  /** Where positions are stored (default: each workspace's object, docs/decisions/0023). */
  positions?: PositionSink;
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

/** What one batch read: every vehicle's live state, and which reports are already stored. */
interface BatchRead {
  beaconOf: Map<string, { workspaceId: string; vehicleId: string }>;
  folds: Map<string, VehicleFold>;
  /** vehicle -> the version of its stored detector state (the one-writer trigger's check) */
  motionVersionOf: Map<string, number>;
  /** `${deviceId}\n${time}` of reports already stored */
  seen: Set<string>;
}

/** What one batch writes, gathered while folding: later reports of a vehicle overwrite earlier ones. */
interface BatchWrite {
  positionRows: (PositionRow & { workspaceId: string })[];
  changedWorkspaces: Set<string>;
  /** vehicles whose telemetry, detector state and module states are written */
  touched: Set<string>;
  reported: Set<string>;
  health: Map<string, BeaconHealthChange>;
  activated: Map<string, string>;
  events: Map<string, { workspaceId: string; vehicleId: string; event: EventUpsert }>;
  /** vehicle -> workspace, where a new event may push old ones out */
  prune: Map<string, string>;
  moduleRows: FlushRow[];
}

async function ingestOnce(db: Db, requests: Report[][], options: IngestOptions, attempt: number): Promise<(IngestResult | ReportError)[]> {
  const now = options.now ?? Date.now();
  const read = await readBatch(db, requests);
  // Positions live in each workspace's object: it says which reports are stored already, and
  // stores the new ones once D1 has their vehicle's state (so a retry after a failure in between
  // finds them missing and stores them as late: nothing acknowledged is lost).
  const positionSink = options.positions ?? workspacePositions(env);
  for (const key of await positionSink.stored(fixKeysOf(read, requests))) read.seen.add(key);
  const workspaceIds = [...new Set([...read.beaconOf.values()].map((b) => b.workspaceId))];
  const modules = options.modules ?? [...FLEET_MODULES, ...(await placesAlertsModules(db, workspaceIds))];
  const ctx: FoldContext = { now, clock: options.clock ?? DEFAULT_CLOCK_BOUNDS, modules };
  const write: BatchWrite = {
    positionRows: [],
    changedWorkspaces: new Set(),
    touched: new Set(),
    reported: new Set(),
    health: new Map(),
    activated: new Map(),
    events: new Map(),
    prune: new Map(),
    moduleRows: [],
  };
  const poked = new Set<string>();
  const answers = requests.map((request): IngestResult | ReportError => {
    const deviceId = request[0]!.deviceId;
    const beacon = read.beaconOf.get(deviceId);
    if (!beacon) return new ReportError("Unknown device id");
    const throttled = options.throttled?.get(deviceId) ?? 0;
    if (throttled > 0) Object.assign(healthOf(write, deviceId), { throttled, lastReason: "throttled" });
    const result = foldRequest(request, beacon, read, write, ctx);
    // One poke per workspace for the whole batch: the first request that changed it sends it.
    const poke = result.changed && !poked.has(beacon.workspaceId);
    if (poke) poked.add(beacon.workspaceId);
    return { workspaceId: poke ? beacon.workspaceId : null, outcomes: result.outcomes, vehicleId: beacon.vehicleId, stops: result.stops };
  });
  if (!write.reported.size && !write.health.size) return answers;
  await options.beforeWrite?.(attempt);
  await db.batch(writeStatements(db, read, write, now, options.tables) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  await positionSink.append(write.positionRows);
  return answers;
}

/**
 * One round trip: the beacons, each vehicle's telemetry, detector state and beacon status (all
 * through the beacons' own rows). Which reports are already stored, the workspaces' objects say.
 */
async function readBatch(db: Db, requests: Report[][]): Promise<BatchRead> {
  const deviceIds = [...new Set(requests.map((r) => r[0]!.deviceId))];
  const idChunks = chunkRows(deviceIds, 1);
  const vehiclesOf = (ids: string[]) => db.select({ id: beacons.vehicleId }).from(beacons).where(inArray(beacons.id, ids));
  const beaconReads = idChunks.map((ids) =>
    db
      .select({ id: beacons.id, workspaceId: beacons.workspaceId, vehicleId: beacons.vehicleId, timeZone: workspaces.timeZone })
      .from(beacons)
      .innerJoin(workspaces, eq(workspaces.id, beacons.workspaceId))
      .where(inArray(beacons.id, ids)),
  );
  const telemetryReads = idChunks.map((ids) => db.select().from(telemetry).where(inArray(telemetry.vehicleId, vehiclesOf(ids))));
  const motionReads = idChunks.map((ids) => db.select().from(motionState).where(inArray(motionState.vehicleId, vehiclesOf(ids))));
  const vehicleReads = idChunks.map((ids) =>
    db.select({ id: vehicles.id, beaconStatus: vehicles.beaconStatus }).from(vehicles).where(inArray(vehicles.id, vehiclesOf(ids))),
  );
  const reads = [...beaconReads, ...telemetryReads, ...motionReads, ...vehicleReads];
  const results = (await db.batch(reads as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[][];
  let taken = 0;
  const take = <T>(queries: unknown[]) => results.slice(taken, (taken += queries.length)).flat() as T[];
  type Rows<Q extends readonly unknown[]> = Awaited<Q[number]>;

  const beaconRows = take<Rows<typeof beaconReads>[number]>(beaconReads);
  const latestOf = new Map(take<Rows<typeof telemetryReads>[number]>(telemetryReads).map((t) => [t.vehicleId, t]));
  const motionOf = new Map(take<Rows<typeof motionReads>[number]>(motionReads).map((m) => [m.vehicleId, m]));
  const active = new Set(take<Rows<typeof vehicleReads>[number]>(vehicleReads).filter((v) => v.beaconStatus === "ACTIVE").map((v) => v.id));
  const folds = new Map<string, VehicleFold>();
  for (const { vehicleId, workspaceId, timeZone } of beaconRows) {
    const stored = motionOf.get(vehicleId);
    folds.set(vehicleId, {
      ...newVehicleFold(vehicleId, workspaceId),
      timeZone,
      latest: (latestOf.get(vehicleId) as Latest | undefined) ?? null,
      motion: (stored?.state as MotionState | undefined) ?? null,
      odometer: (stored?.odometer as OdometerState | null | undefined) ?? null,
      active: active.has(vehicleId),
      modules: (stored?.modules as Record<string, unknown> | null | undefined) ?? {},
    });
  }
  return {
    beaconOf: new Map(beaconRows.map((b) => [b.id, b])),
    folds,
    motionVersionOf: new Map([...motionOf.values()].map((m) => [m.vehicleId, m.version])),
    seen: new Set(),
  };
}

/**
 * The reports that may be stored already, as their workspace's object is asked about them: a
 * stored fix is never newer than its vehicle's latest, so in-order live reports ask nothing.
 */
function fixKeysOf(read: BatchRead, requests: Report[][]) {
  return requests.flat().flatMap((r) => {
    const beacon = read.beaconOf.get(r.deviceId);
    const latest = beacon ? read.folds.get(beacon.vehicleId)?.latest?.recordedAt : undefined;
    if (!beacon || latest === undefined || r.time > latest) return [];
    return [{ workspaceId: beacon.workspaceId, vehicleId: beacon.vehicleId, beaconId: r.deviceId, recordedAt: r.time }];
  });
}

/** Folds one request's reports (oldest first) into its vehicle's state and the batch's writes. */
function foldRequest(request: Report[], beacon: { workspaceId: string; vehicleId: string }, read: BatchRead, write: BatchWrite, ctx: FoldContext) {
  const { workspaceId, vehicleId } = beacon;
  const deviceId = request[0]!.deviceId;
  const outcomes: IngestOutcome[] = [];
  const stops: NewStop[] = [];
  let changed = false;
  for (const report of [...request].sort((a, b) => a.time - b.time)) {
    const key = `${deviceId}\n${report.time}`;
    if (read.seen.has(key)) {
      outcomes.push("duplicate");
      continue;
    }
    write.reported.add(deviceId);
    const { vehicle, outputs } = foldReport(read.folds.get(vehicleId)!, report, ctx);
    read.folds.set(vehicleId, vehicle);
    outcomes.push(outputs.outcome);
    if (outputs.skewMs !== null) healthOf(write, deviceId).skewMs = outputs.skewMs;
    if (outputs.outcome === "clock_ahead" || outputs.outcome === "too_old") {
      // Acknowledged so the device's buffer moves on, never stored (Traccar's filter.future/past).
      const h = healthOf(write, deviceId);
      h[outputs.outcome]++;
      h.lastReason = outputs.outcome;
      continue;
    }
    read.seen.add(key);
    write.positionRows.push({ ...positionOf(report), workspaceId, vehicleId, receivedAt: ctx.now });
    if (outputs.outcome !== "stored") continue;
    for (const event of outputs.events) write.events.set(event.id, { workspaceId, vehicleId, event });
    for (const e of outputs.events) {
      if (!outputs.opened.includes(e.id)) continue;
      write.prune.set(vehicleId, workspaceId);
      if (e.type === "STOP" && e.latitude !== null && e.longitude !== null) stops.push({ id: e.id, workspaceId, latitude: e.latitude, longitude: e.longitude });
    }
    if (outputs.activated) write.activated.set(vehicleId, workspaceId);
    write.moduleRows.push(...outputs.rows);
    write.touched.add(vehicleId);
    write.changedWorkspaces.add(workspaceId);
    changed = true;
  }
  return { outcomes, stops, changed };
}

/** Exactly the telemetry fields of a vehicle's latest state (a row read from D1 carries more). */
function pickLatest(l: Latest): Latest {
  const { status, statusTimestamp, speed, odometer, fuel, latitude, longitude, heading, recordedAt } = l;
  return { status, statusTimestamp, speed, odometer, fuel, latitude, longitude, heading, recordedAt };
}

function positionOf(report: Report) {
  const { deviceId, time, latitude, longitude, speed, heading, altitude, accuracy, battery, ignition, fuel, odometer } = report;
  return { beaconId: deviceId, recordedAt: time, latitude, longitude, speed, heading, altitude, accuracy, battery, ignition, fuel, odometer };
}

function healthOf(write: BatchWrite, deviceId: string) {
  let h = write.health.get(deviceId);
  if (!h) write.health.set(deviceId, (h = { clock_ahead: 0, too_old: 0, throttled: 0, lastReason: null, skewMs: null }));
  return h;
}

/**
 * One transaction: each touched workspace's version goes up once (every synced row below reads
 * it back, versionOf), then each vehicle's final telemetry and detector state, beacon
 * status and health, timeline events and whatever rows the plugged modules returned.
 */
function writeStatements(db: Db, read: BatchRead, write: BatchWrite, now: number, tables?: Record<string, FlushTable>): BatchItem<"sqlite">[] {
  const writes: BatchItem<"sqlite">[] = [
    ...[...write.changedWorkspaces].map((ws) => bumpVersion(db, ws)),
  ];
  const folds = [...write.touched].map((v) => read.folds.get(v)!);
  const telemetryRows = folds.map((f) => ({ ...pickLatest(f.latest!), id: f.vehicleId, vehicleId: f.vehicleId, workspaceId: f.workspaceId, version: 0 }));
  writes.push(
    ...bulkInsert(db, telemetry, telemetryRows, {
      onConflict: { target: [telemetry.vehicleId], set: Object.values(telemetryColumns) },
      stampVersion: telemetry.version,
    }),
  );
  const plain = [...write.reported].filter((id) => !write.health.has(id));
  for (const ids of chunkRows(plain, 1)) writes.push(db.update(beacons).set({ lastReportAt: now }).where(inArray(beacons.id, ids)));
  for (const [id, h] of write.health) writes.push(healthUpdate(db, id, h, write.reported.has(id) ? now : null, now));
  writes.push(...motionWrites(db, read, folds, now), ...eventWrites(db, write));
  for (const workspaceId of new Set(write.activated.values())) {
    const ids = [...write.activated].filter(([, ws]) => ws === workspaceId).map(([v]) => v);
    for (const part of chunkRows(ids, 1)) {
      writes.push(db.update(vehicles).set({ beaconStatus: "ACTIVE", version: versionOf(workspaceId) }).where(inArray(vehicles.id, part)));
    }
  }
  writes.push(...flushRows(db, write.moduleRows, tables));
  return writes;
}

/** Each vehicle's detector state, written as the next version of the one read (the trigger's check). */
function motionWrites(db: Db, read: BatchRead, folds: VehicleFold[], now: number) {
  const motionRows = folds.map((f) => ({
    vehicleId: f.vehicleId,
    workspaceId: f.workspaceId,
    state: f.motion!,
    odometer: f.odometer!,
    modules: f.modules,
    version: (read.motionVersionOf.get(f.vehicleId) ?? 0) + 1,
    updatedAt: now,
  }));
  const columns = { state: motionState.state, odometer: motionState.odometer, modules: motionState.modules, version: motionState.version, updatedAt: motionState.updatedAt };
  return chunkRows(motionRows, 7).map((rows) =>
    db.insert(motionState).values(rows).onConflictDoUpdate({ target: motionState.vehicleId, set: fromExcluded(columns) }),
  );
}

function eventWrites(db: Db, write: BatchWrite) {
  const eventRows = [...write.events.values()].map(({ workspaceId, vehicleId, event: e }): typeof vehicleEvents.$inferInsert => ({
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
    version: 0, // stamped with the workspace's new version
  }));
  const writes: BatchItem<"sqlite">[] = bulkInsert(db, vehicleEvents, eventRows, {
    onConflict: { target: [vehicleEvents.id], set: Object.values(eventColumns) },
    stampVersion: vehicleEvents.version,
  });
  // Only a new event changes which events are the newest (updates keep their start time).
  for (const [vehicleId, workspaceId] of write.prune) writes.push(pruneEvents(db, workspaceId, vehicleId));
  return writes;
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
