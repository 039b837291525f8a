-- Issue 23 (docs/decisions/0021-security-second-round.md).
-- Where a session was signed in from, for the sessions list (Settings -> Security) and for the
-- sign-in limits: a network (IPv4 address or IPv6 /64) that signed in to an account before is the
-- owner's, and passes a per-account budget that strangers have spent.
ALTER TABLE `sessions` ADD `network` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
CREATE INDEX `sessions_user_network_idx` ON `sessions` (`user_id`, `network`);
