-- Issue 52, "no business rule lives only in a migration" (docs/decisions/0085, amended).
--
-- The triggers of 0043 decided which message a job's change queues (which statuses, the
-- workspace's choices, "failed" only to a customer already told) in SQL. They now only record the
-- fact, whoever wrote the job (the object's flush, a REST write, a pushed mutation), in the same
-- statement as the change; the sender (worker/jobs/customer-messages.ts) turns each recorded change
-- into messages by the one rule, shared/jobs/customer-message-rule.ts `messagesForJobChange`, and
-- deletes it. What the triggers still test only narrows what they write: a live job with an address
-- to tell, and for a status, one of TELLING_STATUSES (a Worker test reads this trigger back and
-- compares the list).
DROP TRIGGER IF EXISTS `jobs_customer_message_on_status`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `jobs_customer_message_on_reschedule`;
--> statement-breakpoint
CREATE TABLE `job_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`job_id` text NOT NULL REFERENCES `jobs`(`id`) ON DELETE cascade,
	`change` text NOT NULL,
	`status` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_changes_ws_idx` ON `job_changes` (`workspace_id`, `created_at`);
--> statement-breakpoint
CREATE TRIGGER `jobs_change_on_status` AFTER UPDATE OF `status` ON `jobs`
WHEN NEW.`status` <> OLD.`status` AND NEW.`deleted` = 0 AND NEW.`status` IN ('en_route', 'completed', 'cancelled')
	AND (NEW.`customer_email` IS NOT NULL OR NEW.`customer_phone` IS NOT NULL)
BEGIN
	INSERT INTO `job_changes` (`id`, `workspace_id`, `job_id`, `change`, `status`)
	VALUES (lower(hex(randomblob(16))), NEW.`workspace_id`, NEW.`id`, 'status', NEW.`status`);
END;
--> statement-breakpoint
CREATE TRIGGER `jobs_change_on_date` AFTER UPDATE OF `date` ON `jobs`
WHEN NEW.`date` <> OLD.`date` AND NEW.`deleted` = 0
	AND (NEW.`customer_email` IS NOT NULL OR NEW.`customer_phone` IS NOT NULL)
BEGIN
	INSERT INTO `job_changes` (`id`, `workspace_id`, `job_id`, `change`, `status`)
	VALUES (lower(hex(randomblob(16))), NEW.`workspace_id`, NEW.`id`, 'date', NEW.`status`);
END;
