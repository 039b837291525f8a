-- A workspace is a team (docs/decisions/0018-role-model.md): invites by e-mail, and the fleet's
-- drivers as people of their own that vehicles are assigned to.

-- An invite: only the SHA-256 of its token is stored; single use (`accepted_at`), revocable
-- (`revoked_at`), 7 days. A resend replaces the hash, so the old link dies at once.
CREATE TABLE `invites` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`token_hash` text NOT NULL,
	`invited_by` text,
	`expires_at` integer NOT NULL,
	`accepted_at` integer,
	`accepted_by` text,
	`revoked_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invites_token_idx` ON `invites` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `invites_ws_idx` ON `invites` (`workspace_id`);
--> statement-breakpoint

-- Drivers: people of the fleet, not accounts. Synced like vehicles (version, deleted, created_version).
CREATE TABLE `drivers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`version` integer NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created_version` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `drivers_ws_version_idx` ON `drivers` (`workspace_id`, `version`);
--> statement-breakpoint
CREATE TRIGGER `drivers_created_version` AFTER INSERT ON `drivers` WHEN NEW.`created_version` IS NULL
BEGIN UPDATE `drivers` SET `created_version` = NEW.`version` WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
-- A vehicle's assigned driver (one or none). The free-text `driver` column stays for rows written
-- before this migration and old tabs; the screens show the assigned driver's name.
ALTER TABLE `vehicles` ADD `driver_id` text;
--> statement-breakpoint
-- The free-text drivers the vehicles had become people: one driver per distinct name per workspace,
-- assigned to those vehicles. Stamped with a bumped workspace version so clients pull them.
UPDATE `workspaces` SET `version` = `version` + 1
WHERE `id` IN (SELECT `workspace_id` FROM `vehicles` WHERE `driver` IS NOT NULL AND `driver` != '' AND `deleted` = 0);
--> statement-breakpoint
INSERT INTO `drivers` (`id`, `workspace_id`, `name`, `version`)
SELECT lower(hex(randomblob(16))), v.`workspace_id`, v.`driver`, (SELECT w.`version` FROM `workspaces` w WHERE w.`id` = v.`workspace_id`)
FROM (SELECT DISTINCT `workspace_id`, `driver` FROM `vehicles` WHERE `driver` IS NOT NULL AND `driver` != '' AND `deleted` = 0) v;
--> statement-breakpoint
UPDATE `vehicles`
SET `driver_id` = (SELECT d.`id` FROM `drivers` d WHERE d.`workspace_id` = `vehicles`.`workspace_id` AND d.`name` = `vehicles`.`driver`),
    `version` = (SELECT w.`version` FROM `workspaces` w WHERE w.`id` = `vehicles`.`workspace_id`)
WHERE `driver` IS NOT NULL AND `driver` != '' AND `deleted` = 0;
