-- Service and inspections (issue 32, docs/decisions/0032): service schedules and entries per
-- vehicle, each vehicle's engine hours (kept by the workspace's object from the time with the
-- ignition on, like the GPS odometer), inspection forms (every workspace gets a default pre-trip
-- form) and submitted inspections. Synced columns as for places (docs/decisions/0003).
ALTER TABLE `vehicles` ADD `engine_seconds` integer;
--> statement-breakpoint
CREATE TABLE `service_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`name` text NOT NULL,
	`every_miles` real,
	`every_engine_hours` real,
	`every_days` integer,
	`last_done_at` integer NOT NULL,
	`last_done_odometer_miles` real,
	`last_done_engine_hours` real,
	`cycle` integer DEFAULT 0 NOT NULL,
	`announced` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `service_schedules_ws_version_idx` ON `service_schedules` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `service_schedules_vehicle_idx` ON `service_schedules` (`vehicle_id`);
--> statement-breakpoint
CREATE TRIGGER `service_schedules_created_version` AFTER INSERT ON `service_schedules` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `service_schedules` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `service_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`date` text NOT NULL,
	`odometer_miles` real,
	`engine_hours` real,
	`description` text,
	`cost_cents` integer,
	`vendor` text,
	`notes` text,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`schedule_ids` text DEFAULT '[]' NOT NULL,
	`resolves_issue_ids` text DEFAULT '[]' NOT NULL,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `service_entries_ws_version_idx` ON `service_entries` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `service_entries_vehicle_date_idx` ON `service_entries` (`vehicle_id`, `date`);
--> statement-breakpoint
CREATE TRIGGER `service_entries_created_version` AFTER INSERT ON `service_entries` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `service_entries` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `inspection_forms` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`items` text NOT NULL,
	`is_default` integer DEFAULT 0 NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inspection_forms_ws_version_idx` ON `inspection_forms` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `inspection_forms_created_version` AFTER INSERT ON `inspection_forms` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `inspection_forms` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `inspections` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`form_id` text NOT NULL,
	`odometer_miles` real,
	`results` text NOT NULL,
	`signed_name` text NOT NULL,
	`failed_items` integer DEFAULT 0 NOT NULL,
	`issue_ids` text DEFAULT '[]' NOT NULL,
	`submitted_by_user_id` text,
	`submitted_at` integer NOT NULL,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `inspections_ws_version_idx` ON `inspections` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `inspections_ws_submitted_idx` ON `inspections` (`workspace_id`, `submitted_at`);
--> statement-breakpoint
CREATE TRIGGER `inspections_created_version` AFTER INSERT ON `inspections` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `inspections` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- Every existing workspace starts with the default pre-trip form (new ones get it on creation, or
-- lazily on first read: worker/maintenance/inspection-forms.ts). Its id derives from the workspace,
-- so creating it twice is creating it once. The items must equal shared/maintenance/inspections.ts's
-- DEFAULT_PRE_TRIP_ITEMS.
INSERT OR IGNORE INTO `inspection_forms` (`id`, `workspace_id`, `name`, `items`, `is_default`, `version`)
SELECT `id` || ':pre-trip', `id`, 'Pre-trip inspection',
	'[{"id":"brakes","label":"Brakes","kind":"pass_fail"},{"id":"tyres","label":"Tyres and wheels","kind":"pass_fail"},{"id":"lights","label":"Lights and indicators","kind":"pass_fail"},{"id":"mirrors","label":"Mirrors","kind":"pass_fail"},{"id":"horn","label":"Horn","kind":"pass_fail"},{"id":"wipers","label":"Wipers and washers","kind":"pass_fail"},{"id":"fluid-leaks","label":"No fluid leaks","kind":"pass_fail"},{"id":"seat-belts","label":"Seat belts","kind":"pass_fail"},{"id":"steering","label":"Steering","kind":"pass_fail"},{"id":"windshield","label":"Windshield","kind":"pass_fail"},{"id":"emergency-kit","label":"Emergency kit and fire extinguisher","kind":"pass_fail"}]',
	1, `version`
FROM `workspaces`;
