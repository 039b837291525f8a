-- Issue 53: every time the vehicle was at a job's stop, in order, as a JSON array of
-- {"arrivedAt", "departedAt"} (ms; departedAt null while there). A vehicle coming back to a stop
-- it had left opens a second visit instead of clearing the first one's departure
-- (docs/decisions/0083). Rows reached before it have '[]': their one visit is their arrived_at
-- and departed_at (shared/jobs/jobs.ts jobVisits).
ALTER TABLE `jobs` ADD `visits` text DEFAULT '[]' NOT NULL;
