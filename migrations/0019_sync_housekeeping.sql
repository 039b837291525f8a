-- Sync housekeeping (issues 34 and 35, docs/decisions/0035).
-- `sync_acks`: raised by a push whose mutations were all recorded without a write (refused,
-- unknown): the pusher's clients learn their last mutation ids from the next pull without a bump
-- of the workspace version, so nobody else pulls anything again.
ALTER TABLE `workspaces` ADD `sync_acks` integer NOT NULL DEFAULT 0;
-- `last_pulled_at`: when the group last synced, written at most once an hour per group; the hourly
-- retention deletes groups idle for 60 days and their clients (worker/retention.ts). Groups that
-- exist now start their 60 days today.
ALTER TABLE `replicache_client_groups` ADD `last_pulled_at` integer NOT NULL DEFAULT 0;
UPDATE `replicache_client_groups` SET `last_pulled_at` = CAST(unixepoch('subsec') * 1000 AS integer);
CREATE INDEX `replicache_client_groups_idle_idx` ON `replicache_client_groups` (`last_pulled_at`);
