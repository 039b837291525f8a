import { getTableName } from "drizzle-orm";
import { alerts, jobs, telemetry, vehicleEvents, vehicles } from "./schema";

/**
 * The live tables, declared once (issue 52, docs/decisions/0081): the synced tables the workspace
 * object's flush writes (party/live-fleet/flush-batch.ts, flush-tables.ts) that a pull reads, the
 * only ones an incremental pull reads when no other write came after its cookie
 * (worker/sync/changes.ts). Outside the one writer (worker/workspace-object.ts) the database
 * handle cannot write them: `Db` in db/client.ts refuses these tables at compile time. A synced
 * table the flush starts writing is added here, and its writes then go through the writer.
 */
export const LIVE_TABLES = [vehicles, telemetry, vehicleEvents, alerts, jobs] as const;

/** The table objects of LIVE_TABLES, as a type: what `Db`'s insert, update and delete refuse. */
export type LiveTable = (typeof LIVE_TABLES)[number];

/** LIVE_TABLES by name, in SQL: "vehicles", "telemetry", "vehicle_events", "alerts", "jobs". */
export const LIVE_SYNCED_TABLES: readonly string[] = LIVE_TABLES.map((table) => getTableName(table));

/**
 * Every table the object's flush writes (party/live-fleet/flush-batch.ts and flush-tables.ts): the
 * live ones, the beacons' last reports and health, and the report rollups (by day and by hour). db/live-reads.worker.test.ts
 * keeps this in step with FLUSH_TABLES.
 */
export const FLUSHED_TABLES: readonly string[] = [
  ...LIVE_SYNCED_TABLES,
  "beacons",
  "vehicle_day_rollups",
  "event_rollups",
  "workspace_hour_driving",
];
