-- The cost report's distance (docs/decisions/0095) sums a year of day rollups per vehicle and month
-- (365,000 rows for 1,000 vehicles). From the (workspace_id, day, …) index of 0035 the rows come
-- day by day, so SQLite sorted all of them for the GROUP BY; from this one they come a vehicle at a
-- time and a month (the day's first 7 characters, the same expression the query groups by) at a
-- time, so the sums are made in the index's order, with no sort, from the index alone.
-- 0035's index stays: the Summary and Daily reports read a day's rollups across the fleet.
CREATE INDEX `vehicle_day_rollups_ws_vehicle_month_idx` ON `vehicle_day_rollups` (`workspace_id`, `vehicle_id`, substr(`day`, 1, 7), `day`, `distance_metres`);
