-- Expenses and renewals (issue 42 part B, docs/decisions/0049). Synced columns as for fill-ups
-- (docs/decisions/0045): a full pull carries expenses of the recent window (by `date`) and every
-- live renewal; an incremental one every change, tombstones included.
CREATE TABLE `expenses` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`date` text NOT NULL,
	`kind` text NOT NULL,
	`cost_cents` integer NOT NULL,
	`note` text,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `expenses_ws_version_idx` ON `expenses` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `expenses_ws_date_idx` ON `expenses` (`workspace_id`, `date`);
--> statement-breakpoint
CREATE INDEX `expenses_vehicle_date_idx` ON `expenses` (`vehicle_id`, `date`);
--> statement-breakpoint
CREATE TRIGGER `expenses_created_version` AFTER INSERT ON `expenses` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `expenses` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- `announced` is `{dueDate}:{status}` once the reminder for that due date went out
-- (worker/costs/renewal-notifications.ts); renewing moves the due date, so a new period begins.
CREATE TABLE `renewals` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text,
	`due_date` text NOT NULL,
	`remind_days_before` integer DEFAULT 30 NOT NULL,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`announced` text,
	`renewed_at` integer,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `renewals_ws_version_idx` ON `renewals` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `renewals_vehicle_idx` ON `renewals` (`vehicle_id`);
--> statement-breakpoint
CREATE INDEX `renewals_due_idx` ON `renewals` (`deleted`, `due_date`);
--> statement-breakpoint
CREATE TRIGGER `renewals_created_version` AFTER INSERT ON `renewals` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `renewals` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
