-- The cost report's distance (issue 42, docs/decisions/0061) sums a year of day rollups per vehicle
-- and month (365,000 rows for 1,000 vehicles). The (workspace_id, day) index found them but every
-- row's distance was then read from the table; this one carries vehicle_id and distance_metres, so
-- the sum comes from the index alone. It replaces the narrower index (its prefix), so a rollup
-- write still keeps one index up to date, not two.
DROP INDEX IF EXISTS `vehicle_day_rollups_ws_day_idx`;
--> statement-breakpoint
CREATE INDEX `vehicle_day_rollups_ws_day_distance_idx` ON `vehicle_day_rollups` (`workspace_id`, `day`, `vehicle_id`, `distance_metres`);
