-- Photos and issues (defects), issue 32 (docs/decisions/0030).
--
-- A photo's bytes are in R2 (binding PHOTOS) under `{workspace_id}/{id}`; this row says whose it
-- is. The id may be the browser's (a UUID made offline, so a record can name a photo before it
-- is uploaded).
CREATE TABLE `photos` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `photos_ws_idx` ON `photos` (`workspace_id`);
--> statement-breakpoint
-- Issues are synced like places (`version` / `deleted` / `created_version`, docs/decisions/0003).
-- `number` is #1, #2, ... per workspace: computed inside the INSERT (one D1 transaction), and the
-- unique index makes a duplicate impossible rather than unlikely.
CREATE TABLE `issues` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`number` integer NOT NULL,
	`vehicle_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`priority` text NOT NULL,
	`status` text NOT NULL,
	`reported_by_user_id` text,
	`assignee_user_id` text,
	`due_date` text,
	`source_inspection_id` text,
	`source_alert_id` text,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`resolved_by_service_entry_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `issues_ws_number_idx` ON `issues` (`workspace_id`, `number`);
--> statement-breakpoint
CREATE INDEX `issues_ws_version_idx` ON `issues` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `issues_ws_status_idx` ON `issues` (`workspace_id`, `status`, `updated_at`);
--> statement-breakpoint
CREATE INDEX `issues_ws_vehicle_idx` ON `issues` (`workspace_id`, `vehicle_id`);
--> statement-breakpoint
CREATE TRIGGER `issues_created_version` AFTER INSERT ON `issues` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `issues` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `issue_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`issue_id` text NOT NULL REFERENCES `issues`(`id`) ON DELETE cascade,
	`author_user_id` text,
	`text` text NOT NULL,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `issue_comments_ws_version_idx` ON `issue_comments` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `issue_comments_issue_idx` ON `issue_comments` (`issue_id`, `created_at`);
--> statement-breakpoint
CREATE TRIGGER `issue_comments_created_version` AFTER INSERT ON `issue_comments` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `issue_comments` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- An assignment's e-mail, written in the same batch as the assignment and sent after it commits
-- (and by the cron if that send failed): an assignment is never saved without its e-mail queued.
CREATE TABLE `issue_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`issue_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
