-- Customer links of one job (issue 43, docs/decisions/0055): like a vehicle's live-share link
-- (migrations/0015, docs/decisions/0029), the token is kept as its SHA-256 only. The link answers
-- until 30 minutes after its job is completed (or the job is cancelled or deleted), and at most
-- `expires_at` (7 days after it was made), whichever comes first.
CREATE TABLE `job_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`job_id` text NOT NULL REFERENCES `jobs`(`id`) ON DELETE cascade,
	`token_hash` text NOT NULL,
	`created_by` text REFERENCES `users`(`id`) ON DELETE set null,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_shares_hash_idx` ON `job_shares` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `job_shares_job_idx` ON `job_shares` (`workspace_id`, `job_id`);
