-- Work orders, their lines, parts and vendors (issue 55, docs/decisions/0087). Synced columns as
-- for service entries (docs/decisions/0033): `version` stamps every change, `deleted` makes a
-- tombstone a pull sends as `del`, `created_version` is set by a trigger. A work order names the
-- issues and schedules it gathers (`issue_ids`, `schedule_ids`, as a service entry does) and, once
-- completed, what its completion did (`completion`: the service entry, the issues' and schedules'
-- former state and the stock taken), so reopening undoes exactly that.
CREATE TABLE `vendors` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`address` text,
	`note` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `vendors_ws_version_idx` ON `vendors` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `vendors_created_version` AFTER INSERT ON `vendors` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `vendors` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `parts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`name` text NOT NULL,
	`number` text,
	`unit_cost_cents` integer NOT NULL,
	`quantity_on_hand` real NOT NULL,
	`reorder_point` real,
	`location` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `parts_ws_version_idx` ON `parts` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `parts_created_version` AFTER INSERT ON `parts` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `parts` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `work_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`number` integer NOT NULL,
	`vehicle_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`assignee_user_id` text,
	`vendor_id` text,
	`due_date` text,
	`description` text,
	`issue_ids` text DEFAULT '[]' NOT NULL,
	`schedule_ids` text DEFAULT '[]' NOT NULL,
	`tasks` text DEFAULT '[]' NOT NULL,
	`tax_cents` integer DEFAULT 0 NOT NULL,
	`odometer_miles` real,
	`engine_hours` real,
	`completed_at` integer,
	`completed_by_user_id` text,
	`signed_name` text,
	`photo_ids` text DEFAULT '[]' NOT NULL,
	`service_entry_id` text,
	`completion` text,
	`created_by_user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `work_orders_ws_number_idx` ON `work_orders` (`workspace_id`, `number`);
--> statement-breakpoint
CREATE INDEX `work_orders_ws_version_idx` ON `work_orders` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `work_orders_ws_status_idx` ON `work_orders` (`workspace_id`, `status`);
--> statement-breakpoint
CREATE INDEX `work_orders_vehicle_idx` ON `work_orders` (`vehicle_id`);
--> statement-breakpoint
CREATE TRIGGER `work_orders_created_version` AFTER INSERT ON `work_orders` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `work_orders` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TABLE `work_order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`work_order_id` text NOT NULL,
	`kind` text NOT NULL,
	`description` text,
	`quantity` real NOT NULL,
	`unit_cost_cents` integer NOT NULL,
	`part_id` text,
	`user_id` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `work_order_lines_ws_version_idx` ON `work_order_lines` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE INDEX `work_order_lines_order_idx` ON `work_order_lines` (`work_order_id`);
--> statement-breakpoint
CREATE TRIGGER `work_order_lines_created_version` AFTER INSERT ON `work_order_lines` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `work_order_lines` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- A service entry recorded by a work order's completion carries its split (the cost report's
-- labour and parts columns) and the order it came from; `cost_cents` stays the whole (tax included).
ALTER TABLE `service_entries` ADD `labor_cents` integer;
--> statement-breakpoint
ALTER TABLE `service_entries` ADD `parts_cents` integer;
--> statement-breakpoint
ALTER TABLE `service_entries` ADD `work_order_id` text;
