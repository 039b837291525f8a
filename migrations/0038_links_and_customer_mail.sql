-- Security, fifth round (issue 51, findings 3 to 5; docs/decisions/0072).
--
-- A push subscription belongs to the sign-in that made it (`signin_id`, the session's
-- coalesce(signin_id, token_hash)): it ends with that sign-in. The subscriptions stored before
-- this knew no sign-in, so they cannot be tied to one: they are deleted, and each browser's
-- subscription is handed to the server again the next time its push settings are opened.
DELETE FROM `push_subscriptions`;
--> statement-breakpoint
ALTER TABLE `push_subscriptions` ADD `signin_id` text NOT NULL DEFAULT '';
--> statement-breakpoint
CREATE INDEX `push_subscriptions_signin_idx` ON `push_subscriptions` (`signin_id`);
--> statement-breakpoint
-- Each notice goes to each subscription at most once: a send claims (endpoint, notice) first.
-- Kept two days by retention (worker/retention.ts, which deletes by rowid: not WITHOUT ROWID).
CREATE TABLE `push_sends` (
	`endpoint` text NOT NULL,
	`notice_id` text NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY (`endpoint`, `notice_id`)
);
--> statement-breakpoint
CREATE INDEX `push_sends_sent_idx` ON `push_sends` (`sent_at`);
--> statement-breakpoint
-- A customer link can be ended one by one (as a vehicle's share link), and ends with its creator.
ALTER TABLE `job_shares` ADD `ended_at` integer;
--> statement-breakpoint
-- Mail to people outside the product (customers): one row per workspace and address it ever
-- mailed. `token_hash` is the SHA-256 of the address's unsubscribe token for that workspace (an
-- HMAC of the two, so every mail carries the same link without the token being stored);
-- `unsubscribed_at` set means nothing more goes to that address from that workspace.
CREATE TABLE `customer_recipients` (
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`recipient` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`unsubscribed_at` integer,
	PRIMARY KEY (`workspace_id`, `recipient`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE UNIQUE INDEX `customer_recipients_token_idx` ON `customer_recipients` (`token_hash`);
--> statement-breakpoint
-- The development outbox keeps the headers a mail carries beyond the usual (List-Unsubscribe).
ALTER TABLE `email_outbox` ADD `headers` text;
