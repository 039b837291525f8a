-- Fuel log (issue 42, docs/decisions/0045): a vehicle's tank capacity, set in its settings, and
-- the fill-ups logged for it. Synced columns as for service entries (docs/decisions/0033): a full
-- pull carries the recent window (by `at`), an incremental one every change, tombstones included.
ALTER TABLE `vehicles` ADD `fuel_tank_litres` real;
--> statement-breakpoint
CREATE TABLE `fuel_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`at` integer NOT NULL,
	`volume_litres` real NOT NULL,
	`cost_cents` integer,
	`full_tank` integer DEFAULT 1 NOT NULL,
	`odometer_miles` real,
	`vendor` text,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `fuel_entries_ws_version_idx` ON `fuel_entries` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `fuel_entries_ws_at_idx` ON `fuel_entries` (`workspace_id`, `at`);
--> statement-breakpoint
CREATE INDEX `fuel_entries_vehicle_at_idx` ON `fuel_entries` (`vehicle_id`, `at`);
--> statement-breakpoint
CREATE TRIGGER `fuel_entries_created_version` AFTER INSERT ON `fuel_entries` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `fuel_entries` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
