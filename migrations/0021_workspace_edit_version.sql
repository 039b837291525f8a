-- Issue 35: the version of a workspace's last write that was not the workspace object's flush
-- (an edit, a push, the cron), so an incremental pull that finds it at or below its cookie reads
-- only the tables the flush writes (docs/decisions/0017). Existing workspaces start at their
-- current version: whatever was edited before is at or below it.
ALTER TABLE `workspaces` ADD `edit_version` integer DEFAULT 0 NOT NULL;
UPDATE `workspaces` SET `edit_version` = `version`;
