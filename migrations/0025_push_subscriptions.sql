-- Issue 41: Web Push subscriptions (docs/decisions/0047). One row per browser (its push endpoint
-- is unique), for the member and workspace of the session that turned push on there. It ends with
-- the membership (worker/team/members.ts deletes it) and with the account (user cascade) or the
-- workspace (workspace cascade).
CREATE TABLE `push_subscriptions` (
	`endpoint` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `push_subscriptions_member_idx` ON `push_subscriptions` (`workspace_id`,`user_id`);
--> statement-breakpoint
CREATE INDEX `push_subscriptions_user_idx` ON `push_subscriptions` (`user_id`);
