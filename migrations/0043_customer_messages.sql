-- Issue 53, "Customers told, as the anchors do" (docs/decisions/0085).
--
-- A job's customer phone (E.164), a plain job field (shared/jobs/job-fields.ts).
ALTER TABLE `jobs` ADD `customer_phone` text;
--> statement-breakpoint
-- What a workspace tells its customers (PATCH /api/workspace/preferences {customerMessages}):
-- {"enRoute", "arrivingMinutes", "completed", "failed", "showProofPhoto"}. Nothing until an owner
-- or admin turns a message on: customers entered before this were never told anything.
ALTER TABLE `workspaces` ADD `customer_messages` text DEFAULT '{}' NOT NULL;
--> statement-breakpoint
-- One row per message to a job's customer, per kind and channel: at most one of each per job
-- (the unique index). Queued by the triggers below (whoever changed the job: the object's flush,
-- a REST write, a pushed mutation) or by the minute's arriving check; sent by
-- worker/jobs/customer-messages.ts, which claims queued rows (status 'sending') and records what
-- became of each. No address is kept here: the job holds it, and the API answers none.
CREATE TABLE `job_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`job_id` text NOT NULL REFERENCES `jobs`(`id`) ON DELETE cascade,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`provider_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_messages_once_idx` ON `job_messages` (`job_id`, `kind`, `channel`);
--> statement-breakpoint
CREATE INDEX `job_messages_status_idx` ON `job_messages` (`status`, `created_at`);
--> statement-breakpoint
CREATE INDEX `job_messages_ws_job_idx` ON `job_messages` (`workspace_id`, `job_id`);
--> statement-breakpoint
CREATE INDEX `job_messages_provider_idx` ON `job_messages` (`provider_id`) WHERE `provider_id` IS NOT NULL;
--> statement-breakpoint
-- The jobs on their way to a customer who can be told: what the minute's arriving check reads
-- (ETA within the workspace's minutes). Its columns are none that an ETA write changes, so the
-- flush's ETA updates do not touch it; only a status change of a job with a customer does.
CREATE INDEX `jobs_en_route_customer_idx` ON `jobs` (`workspace_id`) WHERE `status` = 'en_route' AND `deleted` = 0 AND (`customer_email` IS NOT NULL OR `customer_phone` IS NOT NULL);
--> statement-breakpoint
-- A status change queues the message the workspace asked for: on the way, done, and failed for a
-- cancellation of a visit the customer was already told about (a customer told nothing is not
-- told that something they never heard of was called off). One row per channel the job has an
-- address for; OR IGNORE keeps each kind once per job. A skipped stop is not a failure: it may
-- still be reached (DESIGN.md "Jobs and routes").
CREATE TRIGGER `jobs_customer_message_on_status` AFTER UPDATE OF `status` ON `jobs`
WHEN NEW.`status` <> OLD.`status` AND NEW.`deleted` = 0 AND NEW.`status` IN ('en_route', 'completed', 'cancelled')
	AND (NEW.`customer_email` IS NOT NULL OR NEW.`customer_phone` IS NOT NULL)
BEGIN
	INSERT OR IGNORE INTO `job_messages` (`id`, `workspace_id`, `job_id`, `kind`, `channel`)
	SELECT lower(hex(randomblob(16))), NEW.`workspace_id`, NEW.`id`, k.`kind`, c.`channel`
	FROM (SELECT CASE NEW.`status` WHEN 'en_route' THEN 'en_route' WHEN 'completed' THEN 'completed' ELSE 'failed' END AS `kind`) AS k
	JOIN `workspaces` AS w ON w.`id` = NEW.`workspace_id`
	JOIN (SELECT 'email' AS `channel`, NEW.`customer_email` AS `address` UNION ALL SELECT 'sms', NEW.`customer_phone`) AS c
		ON c.`address` IS NOT NULL
	WHERE json_extract(w.`customer_messages`, CASE k.`kind` WHEN 'en_route' THEN '$.enRoute' WHEN 'completed' THEN '$.completed' ELSE '$.failed' END) = 1
		AND (k.`kind` <> 'failed' OR EXISTS (SELECT 1 FROM `job_messages` m WHERE m.`job_id` = NEW.`id` AND m.`status` = 'sent'));
END;
--> statement-breakpoint
-- A visit the customer was told about moved to another day: they are told it will not be today
-- (the "failed" message names the new day), once per job like every kind.
CREATE TRIGGER `jobs_customer_message_on_reschedule` AFTER UPDATE OF `date` ON `jobs`
WHEN NEW.`date` <> OLD.`date` AND NEW.`deleted` = 0 AND NEW.`status` NOT IN ('completed', 'cancelled')
	AND (NEW.`customer_email` IS NOT NULL OR NEW.`customer_phone` IS NOT NULL)
BEGIN
	INSERT OR IGNORE INTO `job_messages` (`id`, `workspace_id`, `job_id`, `kind`, `channel`)
	SELECT lower(hex(randomblob(16))), NEW.`workspace_id`, NEW.`id`, 'failed', c.`channel`
	FROM `workspaces` AS w
	JOIN (SELECT 'email' AS `channel`, NEW.`customer_email` AS `address` UNION ALL SELECT 'sms', NEW.`customer_phone`) AS c
		ON c.`address` IS NOT NULL
	WHERE w.`id` = NEW.`workspace_id` AND json_extract(w.`customer_messages`, '$.failed') = 1
		AND EXISTS (SELECT 1 FROM `job_messages` m WHERE m.`job_id` = NEW.`id` AND m.`status` = 'sent');
END;
