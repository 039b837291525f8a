-- Security, third round (issue 34, docs/decisions/0028). An outbox row the relay could not queue
-- (a target too large for a queue message, a queue that refused it) is set aside with its reason
-- instead of blocking the run; the relay reads each workspace's pending rows in turn by this index.
ALTER TABLE `alert_outbox` ADD `set_aside_at` integer;
--> statement-breakpoint
ALTER TABLE `alert_outbox` ADD `set_aside_reason` text;
--> statement-breakpoint
CREATE INDEX `alert_outbox_ws_pending_idx` ON `alert_outbox` (`workspace_id`,`set_aside_at`,`created_at`);
