-- Issue 54, docs/decisions/0097: the workspace's driving per local day and hour, so street travel
-- learns the fleet's speed by hour of day from its own driving (domain/routing/street-travel.ts).
-- The workspace object's flush adds each vehicle's hour to its row once the hour is over: at most
-- 24 rows a day per workspace. Retention (worker/retention.ts) deletes the days past the learned
-- window; the day index serves it.
CREATE TABLE `workspace_hour_driving` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`hour` integer NOT NULL,
	`driving_metres` real DEFAULT 0 NOT NULL,
	`driving_seconds` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`, `hour`)
);
--> statement-breakpoint
CREATE INDEX `workspace_hour_driving_day_idx` ON `workspace_hour_driving` (`day`);
