-- Issue 39, finding 4: photos have bounds (docs/decisions/0042-bounded-photos.md).
-- Each workspace may keep this many bytes of photos (1 GB; raised per workspace by support).
ALTER TABLE `workspaces` ADD `photo_quota_bytes` integer DEFAULT 1000000000 NOT NULL;
-- When the collector found a record naming the photo: NULL until then. A photo still NULL a day
-- after its upload is named by nothing, and is deleted with its bytes.
ALTER TABLE `photos` ADD `attached_at` integer;
CREATE INDEX `photos_unattached_idx` ON `photos` (`created_at`) WHERE `attached_at` IS NULL;
-- The R2 prefixes (`{workspaceId}/`) of deleted workspaces whose bytes the cron still deletes.
-- Not named workspace_id: deleting an account's workspaces deletes every row with that column.
CREATE TABLE `photo_purges` (
	`prefix` text PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
