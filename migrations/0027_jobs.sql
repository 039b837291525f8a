-- Jobs and routes (issue 43, docs/decisions/0052): a stop to make on a date, at a place or a
-- point, in a time window, assigned to a vehicle (and so to its driver) in an order. Synced like
-- fuel entries (docs/decisions/0045): a full pull carries the window of days around today (by
-- `date`), an incremental one every change, tombstones included.
--
-- `number` is #1, #2, ... per workspace like issues (migrations/0016): computed inside the
-- INSERT, and the unique index makes a duplicate impossible rather than unlikely.
-- `date` is the workspace's local day (YYYY-MM-DD); `window_start` / `window_end` its local
-- "HH:MM". `latitude` / `longitude` are always set: the point given, or the place's centre, so
-- the ETA has a point to reach; `place_id`, when set, is what arrival is detected against.
-- Times (`*_at`, `eta`) are ms since the epoch.
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`number` integer NOT NULL,
	`title` text NOT NULL,
	`date` text NOT NULL,
	`vehicle_id` text,
	`place_id` text,
	`latitude` real NOT NULL,
	`longitude` real NOT NULL,
	`address` text,
	`radius_meters` real DEFAULT 150 NOT NULL,
	`window_start` text,
	`window_end` text,
	`duration_minutes` integer DEFAULT 5 NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`notes` text,
	`customer_name` text,
	`customer_email` text,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`en_route_at` integer,
	`arrived_at` integer,
	`departed_at` integer,
	`completed_at` integer,
	`eta` integer,
	`late` integer DEFAULT 0 NOT NULL,
	`proof_photo_ids` text DEFAULT '[]' NOT NULL,
	`signature_photo_id` text,
	`recipient_name` text,
	`proof_note` text,
	`completed_by_user_id` text,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_ws_number_idx` ON `jobs` (`workspace_id`, `number`);
--> statement-breakpoint
CREATE INDEX `jobs_ws_version_idx` ON `jobs` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `jobs_ws_date_idx` ON `jobs` (`workspace_id`, `date`);
--> statement-breakpoint
CREATE INDEX `jobs_vehicle_date_idx` ON `jobs` (`vehicle_id`, `date`);
--> statement-breakpoint
CREATE TRIGGER `jobs_created_version` AFTER INSERT ON `jobs` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `jobs` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- A job given to a vehicle, to be pushed to its driver's phones (docs/decisions/0047, 0052):
-- queued by the assigning write's own batch, claimed (deleted) by the sender right after it and
-- by the cron for any left, as issue_notifications are. `sender_user_id` is not notified.
CREATE TABLE `job_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`job_id` text NOT NULL REFERENCES `jobs`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`sender_user_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_notifications_ws_idx` ON `job_notifications` (`workspace_id`, `created_at`);
