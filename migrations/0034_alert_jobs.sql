-- Issue 43: an alert raised by a job (job_late, job_arrived, job_completed) names its job wherever
-- a person reads it (Inbox, e-mail, webhook, push). The job's number and title are kept as they
-- were when it happened, like the alert's own position (docs/decisions/0062): an Inbox row needs
-- no job in the synced window to say which one, and a job deleted since still has a name.
ALTER TABLE `alerts` ADD `job_id` text;
ALTER TABLE `alerts` ADD `job_number` integer;
ALTER TABLE `alerts` ADD `job_title` text;
