import type { Db } from "../../db/client";
import { FLUSH_TABLES, rowKey, type FlushTable } from "./flush-tables";
import { FUEL_EVENTS_TABLE } from "../../domain/fuel/fuel-watch-module";
import { DEFAULT_CLOCK_BOUNDS, type ClockBounds } from "../../domain/fold/device-clock";
import { flushStatements } from "./flush-batch";
import { commitWrite } from "../../db/writer";
import {
  type BeaconReport,
  type FleetModule,
  type FlushRow,
  type FoldContext,
  type FoldOutcome,
  type FoldOutputs,
  type VehicleFold,
} from "../../domain/fold/fold";
import { EMPTY_WINDOW, foldInOrder, type ReorderWindow } from "../../domain/fold/late-reports";
import { ReorderWindows } from "./reorder-windows";
import { loadDevices } from "./load-devices";
import { eq, sql } from "drizzle-orm";
import { workspaces } from "../../db/schema";
import { LiveStore, type DeviceState, type LiveWrite, type Pending } from "./live-store";
import type { PositionRow, PositionStore } from "../positions/store";
import { DEVICE_LIMIT, TokenBuckets } from "../../domain/limits/token-buckets";
import { StopQueue } from "../stop-addresses/stop-queue";
import {
  positionReports,
  requestDeviceId,
  requestSize,
  type IngestRequest,
  type WithoutPosition,
} from "../../domain/fold/ingest-request";

/**
 * A workspace's live fleet, held by its Durable Object (party/fleet-room.ts;
 * docs/decisions/0016, parts 4 and 5): each vehicle's folded state in memory and in the object's
 * SQLite (party/live-fleet/live-store.ts), reports folded with the pure `foldReport`, an answer only
 * once the fold's result is durable there, and D1 written later, in one batch per flush. One
 * object per workspace is the one writer of its vehicles' state: no version check, no retry.
 */

export type { BeaconReport };

/** `no_position`: a report with no coordinates, counted on its beacon (domain/fold/ingest-request.ts). */
export type IngestOutcome = "duplicate" | "no_position" | FoldOutcome;

/** A stop a request opened, for the geocoder (party/stop-addresses/). */
export interface OpenedStop {
  id: string;
  workspaceId: string;
  latitude: number;
  longitude: number;
}

/** One request's answer: its outcomes, or why it was refused. */
export type IngestAnswer =
  | { ok: true; vehicleId: string; outcomes: IngestOutcome[]; stops: OpenedStop[] }
  | { ok: false; unknown: true }
  | { ok: false; unknown: false; retryAfterS: number };

export interface LiveOptions {
  /** The server's clock. */
  now?: number;
  clock?: ClockBounds;
  /** RATE_LIMIT_SCALE: the per-device limit scales with it (tests and benchmarks raise it). */
  scale?: number;
  /**
   * MAPBOX_TOKEN, from the Worker's validated config as the clock and scale are ("" or absent: no
   * geocoder). With one, the stops a call opens are queued for the object's stop-address job
   * (party/stop-addresses/); kept in memory only, for that job.
   */
  geocoderToken?: string;
  /** Test seams: the modules folded and the tables their rows may go to. */
  modules?: readonly FleetModule[];
  tables?: Record<string, FlushTable>;
}

/**
 * A flush's announcement: its reports were announced when they were acknowledged (the ingestion
 * pokes the pages, party/room/), and the room drops its shared reads when the flush returns
 * (RoomFlush, party/room/flush.ts `flushed`). Nothing is left to tell.
 */
const ANNOUNCED_BY_THE_ROOM = async () => {};

/**
 * Pending entries per D1 transaction of a flush: bounded, so a backlog never makes one huge batch,
 * and large enough that a steady flush of an unwatched 1,000-vehicle fleet (about 6 entries per
 * vehicle every FLUSH_IDLE_MS) is one transaction: the statements of a batch are one per table and
 * 80 KB of rows (db/bulk.ts), so fewer, bigger batches are what keep D1's statements per second low.
 */
export const FLUSH_CHUNK = 8_000;

export class LiveFleet {
  readonly #store: LiveStore;
  #devices: Map<string, DeviceState>;
  #vehicles: Map<string, VehicleFold>;
  /**
   * Each vehicle's last folds, for late reports to be folded in order (domain/fold/late-reports.ts): in
   * memory only (no write per report), so after a restart a vehicle's window starts empty and a
   * late report until its next 60 s is history only, as before (docs/decisions/0037). Bounded in
   * number and idle time (reorder-windows.ts).
   */
  readonly #windows = new ReorderWindows();
  /** The D1 tables module rows may go to (a test seam: a test's own modules bring their own). */
  tables: Record<string, FlushTable> = FLUSH_TABLES;
  /** Per device, in this object whatever isolate the request came through. */
  #buckets = new Map<number, TokenBuckets>();
  /** Stops waiting for an address (party/stop-addresses/), and the geocoder's token as the last call brought it. */
  readonly stops: StopQueue;
  geocoderToken = "";

  constructor(
    storage: DurableObjectStorage,
    readonly workspaceId: string,
    private readonly db: () => Db,
    /** Where accepted fixes are kept (party/positions/, docs/decisions/0023): this object's storage, then R2. */
    private readonly positions: () => PositionStore,
  ) {
    this.#store = new LiveStore(storage);
    this.stops = new StopQueue(storage);
    this.#devices = this.#store.devices();
    this.#vehicles = this.#store.vehicles();
  }

  /**
   * Vehicles whose state ingestion has changed, counted over this object's life: by a report folded
   * in order, or by a late one re-folded with what came after it (which answers "late" though its
   * trips, odometer and rollups changed). The room pokes open pages when it grows.
   */
  vehicleChanges = 0;
  /** Devices whose state ingestion has changed (a report taken or refused), counted over this object's life: the beacon watch looks again when it grows. */
  deviceChanges = 0;

  /**
   * Folds each request (one device's reports) and stores the result durably before answering; a
   * request of reports without a position only counts them on the device's health.
   */
  async ingest(
    requests: IngestRequest[],
    options: LiveOptions,
    modules: readonly FleetModule[],
  ): Promise<IngestAnswer[]> {
    const now = options.now ?? Date.now();
    await this.#learn(requests.map(requestDeviceId));
    const stored = this.#storedAlready(positionReports(requests));
    const ctx: FoldContext = { now, clock: options.clock ?? DEFAULT_CLOCK_BOUNDS, modules };
    if (options.tables) this.tables = options.tables;
    const batch = new Batch(this.workspaceId, { vehicles: this.#vehicles, windows: this.#windows }, this.tables, now);
    const buckets = this.#bucketsFor(options.scale ?? 1);
    const answers = requests.map((request): IngestAnswer => {
      const device = this.#devices.get(requestDeviceId(request));
      if (!device) return { ok: false, unknown: true };
      const take = buckets.take(device.deviceId, requestSize(request), now);
      if (!take.ok) {
        batch.device(device, {
          rejectedThrottled: device.rejectedThrottled + requestSize(request),
          lastRejectedAt: now,
          lastRejectedReason: "throttled",
        });
        return { ok: false, unknown: false, retryAfterS: take.retryAfterS };
      }
      if (!Array.isArray(request)) return { ok: true, vehicleId: device.vehicleId, ...batch.count(device, request) };
      return { ok: true, vehicleId: device.vehicleId, ...batch.fold(device, request, stored, ctx) };
    });
    const write = batch.write();
    // No await between the two: the object commits both writes together, before the answer goes out.
    this.#store.write(write);
    this.positions().append(batch.positions, now);
    if (options.geocoderToken !== undefined) this.geocoderToken = options.geocoderToken;
    if (this.geocoderToken)
      this.stops.add(
        answers.flatMap((a) => (a.ok ? a.stops : [])),
        now,
      );
    for (const d of write.devices) this.#devices.set(d.deviceId, d);
    for (const v of write.vehicles) this.#vehicles.set(v.vehicleId, v);
    this.vehicleChanges += write.vehicles.length;
    this.deviceChanges += write.devices.length;
    for (const [vehicleId, window] of batch.windows) this.#windows.set(vehicleId, window, now);
    return answers;
  }

  /** A vehicle's live state as this object holds it (undefined: not known here yet). */
  vehicle(vehicleId: string): VehicleFold | undefined {
    return this.#vehicles.get(vehicleId);
  }

  /** Every device held here, with its last report and refusal (the beacon watch, party/beacon-watch/). */
  devices(): Iterable<DeviceState> {
    return this.#devices.values();
  }

  hasPending(): boolean {
    return this.#store.hasPending();
  }

  /**
   * Writes everything pending to D1, FLUSH_CHUNK entries per transaction, oldest first, dropping
   * what each wrote (an entry changed meanwhile stays, with its newer value). Answers whether
   * anything was written. D1 unreachable: rejects, what is left stays pending for the next flush.
   * A chunk D1 refuses while it takes other writes is halved until the entry it refuses is found;
   * that entry is set aside (LiveStore.setAside) and reported, and the rest goes on.
   */
  async flush(): Promise<boolean> {
    let wrote = false;
    for (let entries = this.#store.pending(FLUSH_CHUNK); entries.length; entries = this.#store.pending(FLUSH_CHUNK)) {
      await this.#flushChunk(entries);
      wrote = true;
      if (entries.length < FLUSH_CHUNK) break;
    }
    return wrote;
  }

  async #flushChunk(entries: Pending[], d1Writable = false): Promise<void> {
    const db = this.db();
    try {
      // The one writer commits it after the flush's bump (db/writer.ts).
      await commitWrite(
        db,
        this.workspaceId,
        (stamp, live) => flushStatements(live, stamp, this.workspaceId, entries, this.tables),
        { bump: "live", announce: ANNOUNCED_BY_THE_ROOM },
      );
      this.#store.dropFlushed(entries);
      return;
    } catch (error) {
      // D1 down or locked: nothing to isolate, the whole flush waits (the room backs off).
      if (!d1Writable && !(await this.#d1Writable(db))) throw error;
      if (entries.length === 1) {
        console.error(
          `flush: D1 refuses pending ${entries[0]!.key} of workspace ${this.workspaceId}; set aside:`,
          error,
        );
        this.#store.setAside(entries, String(error));
        return;
      }
      const half = Math.ceil(entries.length / 2);
      await this.#flushChunk(entries.slice(0, half), true);
      await this.#flushChunk(entries.slice(half), true);
    }
  }

  /** Whether D1 takes a write now (a no-op update of the workspace's row, as a flush's transaction would send it). */
  async #d1Writable(db: Db): Promise<boolean> {
    try {
      await db.batch([
        db
          .update(workspaces)
          .set({ version: sql`${workspaces.version}` })
          .where(eq(workspaces.id, this.workspaceId)),
      ]);
      return true;
    } catch {
      return false;
    }
  }

  /** The pending entries D1 refused and the flush set aside (newest first, with D1's error). */
  setAside() {
    return this.#store.setAsideEntries();
  }

  /** The workspace's time zone changed: every vehicle held here folds with it from its next report on (rollups' days). */
  setTimeZone(timeZone: string) {
    const changed = [...this.#vehicles.values()]
      .filter((v) => v.timeZone !== timeZone)
      .map((v) => ({ ...v, timeZone }));
    if (!changed.length) return;
    this.#store.write({ devices: [], vehicles: changed, pending: [] });
    for (const v of changed) this.#vehicles.set(v.vehicleId, v);
    // Their kept states are in the old zone: a late report is not re-folded across the change.
    for (const v of changed) this.#windows.delete(v.vehicleId);
  }

  /** A vehicle's device id was rotated: its old id is unknown here from now on (the new one is read from D1 when it reports). */
  forgetDevicesOf(vehicleId: string) {
    for (const d of [...this.#devices.values()].filter((d) => d.vehicleId === vehicleId)) {
      this.#devices.delete(d.deviceId);
      this.#store.forgetDevice(d.deviceId);
    }
  }

  /** Devices not known here yet are read from D1 once (only this workspace's: another's id stays unknown). */
  async #learn(deviceIds: string[]) {
    const missing = [...new Set(deviceIds)].filter((id) => !this.#devices.has(id));
    if (!missing.length) return;
    const loaded = await loadDevices(this.db(), this.workspaceId, missing);
    const vehicles = loaded.vehicles.filter((v) => !this.#vehicles.has(v.vehicleId));
    this.#store.write({ devices: loaded.devices, vehicles, pending: [] });
    for (const d of loaded.devices) this.#devices.set(d.deviceId, d);
    for (const v of vehicles) this.#vehicles.set(v.vehicleId, v);
  }

  /**
   * Which reports are stored already (a device resending what it was not sure we got): only a
   * report not newer than its vehicle can be one, so most batches ask nothing. Asks the object's
   * recent positions (a resend older than those is "late", and still kept once: reads merge by
   * beacon and time).
   */
  #storedAlready(reports: BeaconReport[]): Set<string> {
    const keys = reports.flatMap((r) => {
      const vehicleId = this.#devices.get(r.deviceId)?.vehicleId;
      const latest = vehicleId ? this.#vehicles.get(vehicleId)?.latest : null;
      return vehicleId && latest && r.time <= latest.recordedAt
        ? [{ vehicleId, beaconId: r.deviceId, recordedAt: r.time }]
        : [];
    });
    return new Set(keys.length ? this.positions().storedKeys(keys) : []);
  }

  #bucketsFor(scale: number) {
    let buckets = this.#buckets.get(scale);
    if (!buckets) this.#buckets.set(scale, (buckets = new TokenBuckets(DEVICE_LIMIT, scale)));
    return buckets;
  }
}

/** When the device last reported, and with which app (kept when a report does not say). */
const reportedBy = (report: BeaconReport, now: number): Partial<DeviceState> =>
  report.app ? { lastReportAt: now, lastApp: report.app } : { lastReportAt: now };

/**
 * What one ingestion call changes, gathered while folding: vehicles and devices as they end,
 * and the pending entries for D1 (a later one of the same key replaces an earlier one).
 */
class Batch {
  readonly #vehicles = new Map<string, VehicleFold>();
  readonly #devices = new Map<string, DeviceState>();
  readonly #pending = new Map<string, LiveWrite["pending"][number]>();
  readonly #seen = new Set<string>();
  /** The accepted fixes of this call, for the object's position store. */
  readonly positions: PositionRow[] = [];
  /** Vehicles' reorder windows as they end, kept by the fleet once the write is durable. */
  readonly windows = new Map<string, ReorderWindow>();

  constructor(
    private readonly workspaceId: string,
    private readonly known: { vehicles: Map<string, VehicleFold>; windows: ReorderWindows },
    private readonly tables: Record<string, FlushTable>,
    private readonly now: number,
  ) {}

  device(d: DeviceState, change: Partial<DeviceState>) {
    const next = { ...(this.#devices.get(d.deviceId) ?? d), ...change };
    this.#devices.set(d.deviceId, next);
    this.#put(`beacon:${d.deviceId}`, { kind: "beacon", device: next });
    return next;
  }

  /**
   * Reports without a position: counted on the device (flushed to D1 with its other counters, one
   * row per device per flush), nothing folded. `lastReportAt` stays that of the last report with
   * coordinates: the vehicle's silence (INACTIVE, beacon_silent) is about knowing where it is.
   */
  count(device: DeviceState, request: WithoutPosition) {
    const current = this.#devices.get(device.deviceId) ?? device;
    this.device(current, {
      rejectedNoPosition: current.rejectedNoPosition + request.withoutPosition,
      lastNoPositionAt: this.now,
    });
    return { outcomes: Array<IngestOutcome>(request.withoutPosition).fill("no_position"), stops: [] };
  }

  /** Folds one request's reports, oldest first, into its vehicle's state and this batch's writes. */
  fold(device: DeviceState, request: BeaconReport[], stored: Set<string>, ctx: FoldContext) {
    const outcomes: IngestOutcome[] = [];
    const stops: OpenedStop[] = [];
    for (const report of [...request].sort((a, b) => a.time - b.time)) {
      const key = `${report.deviceId}\n${report.time}`;
      if (stored.has(key) || this.#seen.has(key)) {
        outcomes.push("duplicate");
        continue;
      }
      const current = this.#devices.get(device.deviceId) ?? device;
      const { vehicleId } = device;
      const vehicleBefore = this.#vehicles.get(vehicleId) ?? this.known.vehicles.get(vehicleId)!;
      const windowBefore = this.windows.get(vehicleId) ?? this.known.windows.get(vehicleId) ?? EMPTY_WINDOW;
      const { vehicle, outputs, window } = foldInOrder(vehicleBefore, windowBefore, report, ctx);
      outcomes.push(outputs.outcome);
      const skew = outputs.skewMs !== null ? { clockSkewMs: outputs.skewMs, clockSkewAt: this.now } : {};
      if (outputs.outcome === "clock_ahead" || outputs.outcome === "too_old") {
        // Acknowledged so the device's buffer moves on, never stored (Traccar's filter.future/past).
        const counter = outputs.outcome === "clock_ahead" ? "rejectedClockAhead" : "rejectedTooOld";
        this.device(current, {
          ...skew,
          ...reportedBy(report, this.now),
          [counter]: current[counter] + 1,
          lastRejectedAt: this.now,
          lastRejectedReason: outputs.outcome,
        });
        continue;
      }
      this.device(current, { ...skew, ...reportedBy(report, this.now) });
      this.#seen.add(key);
      this.positions.push({ ...positionOf(report), vehicleId: device.vehicleId, receivedAt: this.now });
      // A late report inside the vehicle's window is folded too (re-folding what came after it).
      if (!outputs.folded) continue;
      this.windows.set(vehicleId, window);
      this.#accept(vehicle, outputs, stops);
    }
    return { outcomes, stops };
  }

  #accept(vehicle: VehicleFold, outputs: FoldOutputs, stops: OpenedStop[]) {
    const { vehicleId } = vehicle;
    this.#vehicles.set(vehicleId, vehicle);
    this.#put(`telemetry:${vehicleId}`, { kind: "telemetry", vehicleId, latest: vehicle.latest! });
    this.#put(`active:${vehicleId}`, { kind: "active", vehicleId });
    for (const event of outputs.events) this.#put(`event:${event.id}`, { kind: "event", vehicleId, event });
    // Trips a re-fold after a late report no longer makes: withdrawn (replacing a pending upsert of them).
    for (const eventId of outputs.dropped) this.#put(`event:${eventId}`, { kind: "dropEvent", vehicleId, eventId });
    // A re-fold may rewrite events older than the synced set's: they are pruned again with it.
    if (outputs.outcome === "late") this.#put(`prune:${vehicleId}`, { kind: "prune", vehicleId });
    for (const e of outputs.events) {
      if (!outputs.opened.includes(e.id)) continue;
      this.#put(`prune:${vehicleId}`, { kind: "prune", vehicleId });
      if (e.type === "STOP" && e.latitude !== null && e.longitude !== null)
        stops.push({ id: e.id, workspaceId: this.workspaceId, latitude: e.latitude, longitude: e.longitude });
    }
    // Keyed by the D1 row they write: a vehicle's day rewritten by every fix stays one pending
    // entry, not one per fix (each stored, then deleted, by the object's SQLite).
    for (const row of outputs.rows) this.#put(`row:${row.table}:${this.#rowKey(row)}`, { kind: "row", row });
    // A refuel or a drop is a timeline event too: the synced set keeps the newest three of all of them.
    if (outputs.rows.some((r) => r.table === FUEL_EVENTS_TABLE))
      this.#put(`prune:${vehicleId}`, { kind: "prune", vehicleId });
  }

  /** A module row for a table nobody registered fails the whole call: never half a write, never a flush that can never succeed. */
  #rowKey({ table, row }: FlushRow): string {
    const target = this.tables[table];
    if (!target) throw new Error(`fleet module row for unregistered table ${table}`);
    return rowKey(target, row);
  }

  #put(key: string, body: LiveWrite["pending"][number]["body"]) {
    this.#pending.delete(key);
    this.#pending.set(key, { key, body });
  }

  write(): LiveWrite {
    return {
      devices: [...this.#devices.values()],
      vehicles: [...this.#vehicles.values()],
      pending: [...this.#pending.values()],
    };
  }
}

function positionOf(report: BeaconReport): Omit<PositionRow, "vehicleId" | "receivedAt"> {
  const { deviceId, time, latitude, longitude, speed, heading, altitude, accuracy, battery, ignition, fuel, odometer } =
    report;
  return {
    beaconId: deviceId,
    recordedAt: time,
    latitude,
    longitude,
    speed,
    heading,
    altitude,
    accuracy,
    battery,
    ignition,
    fuel,
    odometer,
  };
}
