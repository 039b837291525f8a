import { customType, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The positions tables in the workspace object's own SQLite (docs/decisions/0023): drizzle tables
 * for the queries, and the DDL below to create them, run by the store on every start (IF NOT
 * EXISTS, so it is a no-op once they exist).
 */
const bytes = customType<{ data: Uint8Array; driverData: ArrayBuffer | Uint8Array }>({
  dataType: () => "blob",
  toDriver: (value) => value,
  fromDriver: (value) => (value instanceof Uint8Array ? value : new Uint8Array(value)),
});

/**
 * What each append stored, one row per append whatever its vehicles (encodeAppend), until packed.
 * No index: an index entry is one more (billed) row written per append and per delete; the store
 * keeps each vehicle's append ids in memory instead (the table is a minute or two of appends).
 */
export const positionRaw = sqliteTable("position_appends", {
  id: integer("id").primaryKey(),
  tMin: integer("t_min").notNull(),
  tMax: integer("t_max").notNull(),
  /** when the append was acknowledged: packed once older than PACK_AFTER_MS */
  receivedAt: integer("received_at").notNull(),
  data: bytes("data").notNull(),
});

/** One vehicle's fixes of one UTC hour, packed; moved to R2 with its day once the day is old enough. */
export const positionBlocks = sqliteTable(
  "position_blocks",
  {
    vehicleId: text("vehicle_id").notNull(),
    blockStart: integer("block_start").notNull(),
    count: integer("count").notNull(),
    data: bytes("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.vehicleId, t.blockStart] })],
);

/**
 * One vehicle's fixes of one UTC hour as one packing run found them (about a minute of reports),
 * written once and never re-encoded; merged into the hour's block once the hour is over, so a
 * fix is encoded twice in all (docs/decisions/0027). `seq` orders a vehicle-hour's chunks: the
 * packing run's number (a counter in position_meta).
 */
export const positionChunks = sqliteTable(
  "position_chunks",
  {
    vehicleId: text("vehicle_id").notNull(),
    blockStart: integer("block_start").notNull(),
    seq: integer("seq").notNull(),
    count: integer("count").notNull(),
    data: bytes("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.vehicleId, t.blockStart, t.seq] }),
    index("position_chunks_block_idx").on(t.blockStart),
  ],
);

/** The UTC days of a vehicle that are in R2 (one object each), so reads and retention never list the bucket. */
export const positionDays = sqliteTable(
  "position_days",
  {
    vehicleId: text("vehicle_id").notNull(),
    /** YYYY-MM-DD, UTC */
    day: text("day").notNull(),
    count: integer("count").notNull(),
    bytes: integer("bytes").notNull(),
  },
  (t) => [primaryKey({ columns: [t.vehicleId, t.day] }), index("position_days_day_idx").on(t.day)],
);

/** The store's own settings and bookkeeping (retention, the last retention sweep). */
export const positionMeta = sqliteTable("position_meta", {
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});

export const POSITIONS_DDL = [
  `CREATE TABLE IF NOT EXISTS position_appends (id INTEGER PRIMARY KEY, t_min INTEGER NOT NULL, t_max INTEGER NOT NULL, received_at INTEGER NOT NULL, data BLOB NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS position_blocks (vehicle_id TEXT NOT NULL, block_start INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (vehicle_id, block_start))`,
  `CREATE TABLE IF NOT EXISTS position_chunks (vehicle_id TEXT NOT NULL, block_start INTEGER NOT NULL, seq INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (vehicle_id, block_start, seq)) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS position_chunks_block_idx ON position_chunks (block_start)`,
  `CREATE TABLE IF NOT EXISTS position_days (vehicle_id TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY (vehicle_id, day))`,
  `CREATE INDEX IF NOT EXISTS position_days_day_idx ON position_days (day)`,
  `CREATE TABLE IF NOT EXISTS position_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
];
