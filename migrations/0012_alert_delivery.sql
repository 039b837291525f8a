-- Alert delivery (docs/decisions/0024): per alert and target a delivery record the queue consumer
-- claims before sending (never twice), an outbox the cron's relay drains into the queue, and each
-- workspace's webhook secret (sealed under WEBHOOK_SECRET_KEY). The table of 0007 was never used.
DROP TABLE `alert_deliveries`;
--> statement-breakpoint
CREATE TABLE `alert_deliveries` (
	`alert_id` text NOT NULL,
	`target` text NOT NULL,
	`workspace_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`claimed_at` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`alert_id`, `target`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_deliveries_ws_status_idx` ON `alert_deliveries` (`workspace_id`,`status`);--> statement-breakpoint
CREATE TABLE `alert_outbox` (
	`alert_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_secrets` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`sealed` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);

--> statement-breakpoint
-- The outbox is filled in the same transaction that writes the alert, whoever writes it (the
-- ingestion batch, the workspace's object, the cron), and only for rules that notify someone.
CREATE TRIGGER `alerts_outbox` AFTER INSERT ON `alerts`
WHEN EXISTS (
	SELECT 1 FROM `alert_rules` r WHERE r.`id` = NEW.`rule_id` AND r.`deleted` = 0
	AND (json_array_length(r.`config`, '$.notify.emails') > 0 OR json_extract(r.`config`, '$.notify.webhookUrl') IS NOT NULL)
)
BEGIN INSERT OR IGNORE INTO `alert_outbox` (`alert_id`, `workspace_id`) VALUES (NEW.`id`, NEW.`workspace_id`); END;
