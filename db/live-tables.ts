/**
 * The tables the workspace object's flush writes (party/live-fleet/flush-batch.ts, flush-tables.ts)
 * that a pull reads: the only ones an incremental pull reads when no other write came after its
 * cookie (worker/sync/changes.ts). A synced table the flush starts writing must be added here.
 */
export const LIVE_SYNCED_TABLES = ["vehicles", "telemetry", "vehicle_events", "alerts", "jobs"] as const;

/**
 * Every table the object's flush writes (party/live-fleet/flush-batch.ts and flush-tables.ts): the
 * synced ones, the beacons' last reports and health, and the report rollups. db/live-reads.worker.test.ts
 * keeps this in step with FLUSH_TABLES.
 */
export const FLUSHED_TABLES = [...LIVE_SYNCED_TABLES, "beacons", "vehicle_day_rollups", "event_rollups"] as const;
