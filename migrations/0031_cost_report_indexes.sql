-- The cost report in D1 (issue 42, docs/decisions/0061): its economy reads each vehicle's fill-ups
-- in order (time, then id) with the columns the flags and stretches need. This index holds them
-- all in that order, so the window functions read it without a sort and without the table.
CREATE INDEX `fuel_entries_ws_vehicle_log_idx` ON `fuel_entries` (`workspace_id`, `vehicle_id`, `at`, `id`, `deleted`, `volume_litres`, `full_tank`, `odometer_miles`, `cost_cents`);
--> statement-breakpoint
-- Its expenses by vehicle, month and kind from the index alone (a year of a large fleet is 120,000).
CREATE INDEX `expenses_ws_date_cost_idx` ON `expenses` (`workspace_id`, `date`, `vehicle_id`, `kind`, `cost_cents`, `deleted`);
