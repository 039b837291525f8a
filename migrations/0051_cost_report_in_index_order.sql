-- The cost report at fleet size (issue 55, docs/decisions/0095) sums its rows in an index's order,
-- so SQLite groups them as they come instead of sorting every row of the range first.
--
-- Distance sums a year of day rollups per vehicle and month (365,000 rows for 1,000 vehicles). From
-- the (workspace_id, day, …) index of 0035 they come day by day; from this one a vehicle at a time
-- and a month (the day's first 7 characters, the same expression the query groups by) at a time,
-- from the index alone. 0035's index stays: the Summary reads a day's rollups across the fleet.
CREATE INDEX `vehicle_day_rollups_ws_vehicle_month_idx` ON `vehicle_day_rollups` (`workspace_id`, `vehicle_id`, substr(`day`, 1, 7), `day`, `distance_metres`);
--> statement-breakpoint
-- Economy sums each vehicle's stretches (480,000 for the bench's year) walking the workspace's
-- vehicles in id order from this index, so a report by vehicle groups them without a sort.
CREATE INDEX `vehicles_ws_id_idx` ON `vehicles` (`workspace_id`, `id`);
