-- Reports (docs/decisions/0020-report-rollups.md).
-- A workspace's time zone (IANA name): days, "today" and every time in reports and the timeline
-- are in it. Workspaces created before this get UTC until someone picks theirs in Preferences.
ALTER TABLE workspaces ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
--> statement-breakpoint
-- Per vehicle, per local day: what the Summary and Daily reports add up (party/reports/rollup.ts).
-- Metres, seconds, m/s; fuel in percent of a tank (null where the device reports no fuel).
CREATE TABLE vehicle_day_rollups (
  vehicle_id TEXT NOT NULL,
  day TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  distance_metres REAL NOT NULL DEFAULT 0,
  driving_seconds REAL NOT NULL DEFAULT 0,
  idling_seconds REAL NOT NULL DEFAULT 0,
  moving_metres REAL NOT NULL DEFAULT 0,
  max_speed REAL NOT NULL DEFAULT 0,
  speeding_episodes INTEGER NOT NULL DEFAULT 0,
  trips INTEGER NOT NULL DEFAULT 0,
  stops INTEGER NOT NULL DEFAULT 0,
  fuel_used_percent REAL,
  PRIMARY KEY (vehicle_id, day)
);
--> statement-breakpoint
CREATE INDEX vehicle_day_rollups_ws_day_idx ON vehicle_day_rollups (workspace_id, day);
--> statement-breakpoint
-- Per timeline event, by the same rule: a trip's distance and top speed, a stop's idling time.
CREATE TABLE event_rollups (
  event_id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  vehicle_id TEXT NOT NULL,
  distance_metres REAL NOT NULL DEFAULT 0,
  max_speed REAL NOT NULL DEFAULT 0,
  idling_seconds REAL NOT NULL DEFAULT 0
);
--> statement-breakpoint
-- Reports by e-mail: a member's daily or weekly summary, and the last period sent (idempotence).
CREATE TABLE report_subscriptions (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  last_period TEXT,
  created_at INTEGER NOT NULL DEFAULT (unixepoch('subsec') * 1000),
  PRIMARY KEY (workspace_id, user_id)
);
--> statement-breakpoint
-- Trips and stops of a workspace over a range, for reports across many vehicles.
CREATE INDEX events_ws_start_idx ON vehicle_events (workspace_id, start_time);
