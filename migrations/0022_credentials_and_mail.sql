-- Issue 39 (docs/decisions/0041): every credential ends with its person, and mail a member causes
-- to someone else waits for confirmed addresses and a per-recipient daily cap.
--
-- When the account's address was confirmed (a link e-mailed at sign-up, a Google sign-in or a
-- password reset). Accounts made before this migration count as confirmed from their creation:
-- they were already receiving and causing mail, and nothing should stop for them (ADR 0041).
-- `email_verified` keeps its own meaning (proof for linking Google to a password account).
ALTER TABLE `users` ADD `email_confirmed_at` integer;
--> statement-breakpoint
UPDATE `users` SET `email_confirmed_at` = `created_at`;
--> statement-breakpoint
-- The links that confirm an address: only a SHA-256 of the token is kept.
CREATE TABLE `email_confirmations` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_confirmations_user_idx` ON `email_confirmations` (`user_id`);
--> statement-breakpoint
-- Mail to someone else that did not go out yet: its sender or recipient is not confirmed, or the
-- recipient already had their daily share from that sender. Summed up later in one digest (or,
-- for an invite, mailed with a fresh link once its sender confirms). Goes with the sender's account.
CREATE TABLE `held_mail` (
	`id` text PRIMARY KEY NOT NULL,
	`sender_key` text NOT NULL,
	`sender_user_id` text,
	`recipient` text NOT NULL,
	`kind` text NOT NULL,
	`ref` text,
	`digest_line` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`sender_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `held_mail_recipient_idx` ON `held_mail` (`recipient`);
--> statement-breakpoint
CREATE INDEX `held_mail_sender_idx` ON `held_mail` (`sender_user_id`);
--> statement-breakpoint
-- Who assigned: the assignment e-mail counts against their daily share to the assignee.
ALTER TABLE `issue_notifications` ADD `sender_user_id` text;
--> statement-breakpoint
-- Credentials whose creator is gone (account deleted, or no longer a member) end now, as they
-- would have under the new rule.
UPDATE `api_tokens` SET `revoked_at` = (unixepoch('subsec') * 1000)
WHERE `revoked_at` IS NULL AND (`created_by` IS NULL OR NOT EXISTS (
	SELECT 1 FROM `memberships` m WHERE m.`workspace_id` = `api_tokens`.`workspace_id` AND m.`user_id` = `api_tokens`.`created_by`));
--> statement-breakpoint
UPDATE `vehicle_shares` SET `ended_at` = (unixepoch('subsec') * 1000)
WHERE `ended_at` IS NULL AND (`created_by` IS NULL OR NOT EXISTS (
	SELECT 1 FROM `memberships` m WHERE m.`workspace_id` = `vehicle_shares`.`workspace_id` AND m.`user_id` = `vehicle_shares`.`created_by`));
