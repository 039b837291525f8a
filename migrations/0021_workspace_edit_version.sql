-- Issue 35: what lets an incremental pull read only the tables the workspace object's flush
-- writes (docs/decisions/0017, db/workspace-version.ts). The flush alone writes both columns:
-- `flushed_version`, the version of its last flush, and `edit_version`, the last version before
-- it that was any other write. Every other writer (and an older deployment's code) only bumps
-- `version`, so until the first flush here `flushed_version` differs from it and pulls read
-- every table, as before.
ALTER TABLE `workspaces` ADD `flushed_version` integer DEFAULT 0 NOT NULL;
ALTER TABLE `workspaces` ADD `edit_version` integer DEFAULT 0 NOT NULL;
