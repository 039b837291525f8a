-- Sync housekeeping (issues 34 and 35, docs/decisions/0035).
-- `sync_acks`: raised by a push whose mutations were all recorded without a write (refused,
-- unknown): the pusher's clients learn their last mutation ids from the next pull without a bump
-- of the workspace version, so nobody else pulls anything again.
ALTER TABLE `workspaces` ADD `sync_acks` integer NOT NULL DEFAULT 0;
