-- Sessions that really end (issue 13, docs/decisions/0010-sessions-socket-tickets-csp.md).
-- signin_id: every token derived from one sign-in (workspace switches) shares it, so sign-out ends them all.
-- last_used_at: the idle clock (14 days); expires_at stays the absolute limit (30 days after sign-in).
ALTER TABLE `sessions` ADD `signin_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_used_at` integer;--> statement-breakpoint
UPDATE `sessions` SET `signin_id` = `token_hash`, `last_used_at` = `created_at`;--> statement-breakpoint
CREATE INDEX `sessions_signin_idx` ON `sessions` (`signin_id`);--> statement-breakpoint
-- Single-use, short-lived tickets for opening the realtime socket (only their hash is stored).
CREATE TABLE `realtime_tickets` (
	`ticket_hash` text PRIMARY KEY NOT NULL,
	`session_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
