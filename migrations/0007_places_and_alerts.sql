-- Places (geofences), alert rules, alerts and who has read them (docs/decisions/0019). The first
-- four are synced like vehicles: `version` / `deleted` / `created_version` (docs/decisions/0003).
CREATE TABLE `places` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`geometry` text NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `places_ws_version_idx` ON `places` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `places_created_version` AFTER INSERT ON `places` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `places` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `alert_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`config` text NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alert_rules_ws_version_idx` ON `alert_rules` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `alert_rules_created_version` AFTER INSERT ON `alert_rules` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `alert_rules` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- One row per episode; `id` derives from rule, vehicle and start, so a replay cannot add a second.
CREATE TABLE `alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`rule_id` text NOT NULL,
	`vehicle_id` text NOT NULL,
	`type` text NOT NULL,
	`place_id` text,
	`at` integer NOT NULL,
	`end_at` integer,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`peak` real,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alerts_ws_version_idx` ON `alerts` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `alerts_ws_at_idx` ON `alerts` (`workspace_id`, `at`);
--> statement-breakpoint
CREATE TRIGGER `alerts_created_version` AFTER INSERT ON `alerts` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `alerts` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- Per member: alerts at or before `read_before` are read, and so are those in `read_ids` (JSON).
CREATE TABLE `alert_reads` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL,
	`read_before` integer DEFAULT 0 NOT NULL,
	`read_ids` text DEFAULT '[]' NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer
);
--> statement-breakpoint
CREATE INDEX `alert_reads_ws_version_idx` ON `alert_reads` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `alert_reads_created_version` AFTER INSERT ON `alert_reads` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `alert_reads` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- Per vehicle: the place and alert evaluators' state (party/places, party/alerts), until the
-- workspace's Durable Object keeps it (docs/decisions/0019).
CREATE TABLE `alert_state` (
	`vehicle_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`places` text NOT NULL,
	`alerts` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- Deliveries made (webhook, e-mail): a queue message retried after a success finds its row here.
CREATE TABLE `alert_deliveries` (
	`alert_id` text NOT NULL,
	`channel` text NOT NULL,
	`delivered_at` integer NOT NULL,
	PRIMARY KEY(`alert_id`, `channel`)
);
