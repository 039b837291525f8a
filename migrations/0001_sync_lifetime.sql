-- Sync that outlives deploys, restores and weeks offline (docs/decisions/0003-sync.md).

-- The workspace version at which a synced row was created: a pull sends `del` only for rows the
-- client can hold (created at or before its cookie). Set by a trigger so every writer (pushes,
-- ingestion, the beacon cron) gets it without knowing; rows from before this migration stay NULL
-- and are treated as "maybe held".
ALTER TABLE `vehicles` ADD `created_version` integer;
--> statement-breakpoint
ALTER TABLE `telemetry` ADD `created_version` integer;
--> statement-breakpoint
ALTER TABLE `vehicle_events` ADD `created_version` integer;
--> statement-breakpoint
CREATE TRIGGER `vehicles_created_version` AFTER INSERT ON `vehicles` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `vehicles` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `telemetry_created_version` AFTER INSERT ON `telemetry` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `telemetry` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `vehicle_events_created_version` AFTER INSERT ON `vehicle_events` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `vehicle_events` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint

-- The sync epoch travels in every cookie; an operator rotates it after restoring D1 from a backup,
-- so every cookie of the lost timeline gets a full reset. Tombstones stamped at or below
-- `tombstone_floor` may have been collected: a cookie older than that gets a full reset too.
ALTER TABLE `workspaces` ADD `sync_epoch` text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `tombstone_floor` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint

-- Set when a pull found the group's state ahead of the server's (a restore): its clients' next
-- pushes may start above the server's last mutation id, and are taken as the new baseline.
ALTER TABLE `replicache_client_groups` ADD `rebase` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint

-- When each workspace had which version (one row per workspace per scheduled run that saw a
-- change): tells the tombstone collector which versions are older than the horizon.
CREATE TABLE `sync_checkpoints` (
	`workspace_id` text NOT NULL,
	`version` integer NOT NULL,
	`recorded_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `version`)
);
