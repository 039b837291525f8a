import { chunkRows } from "../../db/chunk";
import type { FlushRow, VehicleFold } from "../../domain/fold/fold";
import type { EventUpsert } from "../../domain/fold/motion";

/**
 * The workspace object's own storage of its live fleet (docs/decisions/0016, part 4): what it
 * knows of each device and vehicle, and what it has not flushed to D1 yet. Plain
 * `ctx.storage.sql` rather than Drizzle's durable-sqlite driver, the object's rule elsewhere
 * (docs/decisions/0036): three key -> JSON tables with no query beyond "all of them" and "this
 * key", written on every ingestion call with multi-row statements whose cost a CPU profile
 * measured (see #upsert); Drizzle's query building would join the object's hottest path.
 *
 * Every write of one ingestion call is one `transactionSync`: the object answers only after it
 * (output gates hold the answer until the write is durable), so an acknowledged report is never
 * lost, and a crash mid-call leaves none of it.
 */

/** A device (beacon) as the object keeps it: its vehicle, and its health as absolute values. */
/** A beacon's health counters and clock, as D1's beacons row and the object's state both hold them. */
export type BeaconHealthFields = Omit<DeviceState, "deviceId" | "vehicleId">;

/** Just the health fields of a beacons row or a device's state (no other column travels along). */
export function healthFieldsOf(x: BeaconHealthFields): BeaconHealthFields {
  const { lastReportAt, rejectedClockAhead, rejectedTooOld, rejectedThrottled, lastRejectedAt } = x;
  const { lastRejectedReason, clockSkewMs, clockSkewAt, lastApp, rejectedNoPosition, lastNoPositionAt } = x;
  return {
    lastReportAt,
    // A device kept before the app was (an older deployment's state) has none.
    lastApp: lastApp ?? null,
    rejectedClockAhead,
    rejectedTooOld,
    rejectedThrottled,
    // Nor a count of reports without a position (kept before issue 56).
    rejectedNoPosition: rejectedNoPosition ?? 0,
    lastNoPositionAt: lastNoPositionAt ?? null,
    lastRejectedAt,
    lastRejectedReason,
    clockSkewMs,
    clockSkewAt,
  };
}

export interface DeviceState {
  deviceId: string;
  vehicleId: string;
  lastReportAt: number | null;
  /** The app of the last report (shared/fleet/beacon-health.ts DEVICE_APPS). */
  lastApp: string | null;
  rejectedClockAhead: number;
  rejectedTooOld: number;
  rejectedThrottled: number;
  /** Reports that carried no position (cells or Wi-Fi only), and when the last one came. */
  rejectedNoPosition: number;
  lastNoPositionAt: number | null;
  lastRejectedAt: number | null;
  lastRejectedReason: string | null;
  clockSkewMs: number | null;
  clockSkewAt: number | null;
}

/**
 * One change D1 has not seen yet. `key` names what it changes (a later change of the same thing
 * replaces it: only the latest telemetry of a vehicle is flushed); `seq` grows with every write,
 * so a flush drops exactly the entries it wrote, not one re-dirtied meanwhile.
 */
export interface Pending {
  key: string;
  seq: number;
  body: PendingBody;
}

export type PendingBody =
  | { kind: "telemetry"; vehicleId: string; latest: NonNullable<VehicleFold["latest"]> }
  | { kind: "event"; vehicleId: string; event: EventUpsert }
  /** an event a re-fold after a late report no longer produces (docs/decisions/0037) */
  | { kind: "dropEvent"; vehicleId: string; eventId: string }
  | { kind: "prune"; vehicleId: string }
  | { kind: "active"; vehicleId: string }
  | { kind: "beacon"; device: DeviceState }
  | { kind: "row"; row: FlushRow };

/** What one ingestion call writes, in one transaction. */
export interface LiveWrite {
  devices: DeviceState[];
  vehicles: VehicleFold[];
  /** keyed changes (a later one replaces an earlier one of the same key) */
  pending: Omit<Pending, "seq">[];
}

/** How many set-aside entries are kept for an operator to look at. */
const SET_ASIDE_KEPT = 1_000;

export class LiveStore {
  #seq = 0;

  constructor(private readonly storage: DurableObjectStorage) {
    const sql = storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS live_devices (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS live_vehicles (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
    sql.exec("CREATE TABLE IF NOT EXISTS pending (key TEXT PRIMARY KEY, seq INTEGER NOT NULL, body TEXT NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS pending_set_aside (key TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, error TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY (key, seq))",
    );
    this.#seq = Number(sql.exec("SELECT coalesce(max(seq), 0) AS s FROM pending").one().s);
  }

  devices(): Map<string, DeviceState> {
    // Through healthFieldsOf: a device kept by an older deployment lacks the newer counters.
    return new Map(this.#all<DeviceState>("live_devices").map((d) => [d.deviceId, { ...d, ...healthFieldsOf(d) }]));
  }

  vehicles(): Map<string, VehicleFold> {
    return new Map(this.#all<VehicleFold>("live_vehicles").map((v) => [v.vehicleId, v]));
  }

  /** What is not flushed yet, oldest change first (at most `limit` entries: a flush goes in chunks). */
  pending(limit = -1): Pending[] {
    return [
      ...this.storage.sql.exec<{ key: string; seq: number; body: string }>(
        "SELECT key, seq, body FROM pending ORDER BY seq LIMIT ?",
        limit,
      ),
    ].map((r) => ({
      key: r.key,
      seq: r.seq,
      body: JSON.parse(r.body) as PendingBody,
    }));
  }

  /** Whether anything waits for the flush. */
  hasPending(): boolean {
    return this.storage.sql.exec("SELECT 1 FROM pending LIMIT 1").toArray().length > 0;
  }

  write({ devices, vehicles, pending }: LiveWrite) {
    this.storage.transactionSync(() => {
      this.#upsert(
        "live_devices (id, body)",
        "ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        devices.map((d) => [d.deviceId, JSON.stringify(d)]),
      );
      this.#upsert(
        "live_vehicles (id, body)",
        "ON CONFLICT (id) DO UPDATE SET body = excluded.body",
        vehicles.map((v) => [v.vehicleId, JSON.stringify(v)]),
      );
      this.#upsert(
        "pending (key, seq, body)",
        "ON CONFLICT (key) DO UPDATE SET seq = excluded.seq, body = excluded.body",
        pending.map((p) => [p.key, ++this.#seq, JSON.stringify(p.body)]),
      );
    });
  }

  /**
   * Rows written with as few statements as the object's SQLite allows (100 bound values each),
   * not one each: `exec` was the object's largest own cost in a CPU profile under load. An
   * existing row is updated in place (an upsert), not deleted and inserted again as `INSERT OR
   * REPLACE` does (its key's index entry too): 40% less SQLite time per write of a 2 KB vehicle.
   */
  #upsert(into: string, onConflict: string, rows: (string | number)[][]) {
    if (!rows.length) return;
    const width = rows[0]!.length;
    const placeholders = `(${Array(width).fill("?").join(", ")})`;
    for (const chunk of chunkRows(rows, width)) {
      this.storage.sql.exec(
        `INSERT INTO ${into} VALUES ${Array(chunk.length).fill(placeholders).join(", ")} ${onConflict}`,
        ...chunk.flat(),
      );
    }
  }

  /** After a flush committed: drops the entries it wrote (one changed since keeps its newer seq). */
  dropFlushed(flushed: Pending[]) {
    this.storage.transactionSync(() => this.#drop(flushed));
  }

  /**
   * One statement for any number of entries, each found through the key's index: an entry whose
   * key was written again meanwhile has a higher seq than any flushed one (seq only grows), so
   * `seq <= the highest flushed` keeps it. (A `(key, seq) IN (VALUES ...)` list of 50 pairs per
   * statement scanned the whole table per statement: 5% of the object's time under load.)
   */
  #drop(flushed: Pending[]) {
    if (!flushed.length) return;
    this.storage.sql.exec(
      "DELETE FROM pending WHERE key IN (SELECT value FROM json_each(?)) AND seq <= ?",
      JSON.stringify(flushed.map((p) => p.key)),
      Math.max(...flushed.map((p) => p.seq)),
    );
  }

  /**
   * Entries D1 refuses while it takes others (a poison row): moved out of the flush's way, kept
   * with D1's error for an operator (the newest SET_ASIDE_KEPT), never retried on their own.
   */
  setAside(entries: Pending[], error: string, now = Date.now()) {
    this.storage.transactionSync(() => {
      for (const e of entries) {
        this.storage.sql.exec(
          "INSERT OR REPLACE INTO pending_set_aside VALUES (?, ?, ?, ?, ?)",
          e.key,
          e.seq,
          JSON.stringify(e.body),
          error.slice(0, 500),
          now,
        );
      }
      this.#drop(entries);
      this.storage.sql.exec(
        "DELETE FROM pending_set_aside WHERE rowid NOT IN (SELECT rowid FROM pending_set_aside ORDER BY at DESC LIMIT ?)",
        SET_ASIDE_KEPT,
      );
    });
  }

  /** The entries set aside, newest first, with D1's error. */
  setAsideEntries(): { key: string; seq: number; error: string; at: number }[] {
    return this.storage.sql
      .exec<{ key: string; seq: number; error: string; at: number }>(
        "SELECT key, seq, error, at FROM pending_set_aside ORDER BY at DESC",
      )
      .toArray();
  }

  /** A device the workspace no longer has (its id was rotated): forgotten, its vehicle kept. */
  forgetDevice(deviceId: string) {
    this.storage.sql.exec("DELETE FROM live_devices WHERE id = ?", deviceId);
  }

  #all<T>(table: "live_devices" | "live_vehicles"): T[] {
    return [...this.storage.sql.exec<{ body: string }>(`SELECT body FROM ${table}`)].map(
      (r) => JSON.parse(r.body) as T,
    );
  }
}
