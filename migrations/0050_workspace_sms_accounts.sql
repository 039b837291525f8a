-- Issue 53, docs/decisions/0093: each workspace texts its customers through its own Twilio
-- account, set by its owners and admins (PUT /api/workspace/sms). The auth token is stored sealed
-- (AES-256-GCM under WEBHOOK_SECRET_KEY, the workspace id as associated data, as the webhook
-- secret is): a copy of D1 alone does not hand it out, nor can a row be moved to another
-- workspace. The SID and the sender are not secret: the page shows them back.
CREATE TABLE `workspace_sms_accounts` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`account_sid` text NOT NULL,
	`sender` text NOT NULL,
	`auth_token_sealed` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
