-- A job day that cannot stall every tenant, and device times a phone cannot set anywhere (issue 51,
-- docs/decisions/0071). `assigned_at`: when the job was last given to a vehicle (a driver's
-- "arrived" or "done" is never before it). `device_time_refused`: the last time a phone stamped an
-- arrival or completion with that was out of bounds and replaced by the server's receiving time
-- (null: none was). The partial index counts a workspace's live jobs per day and vehicle, and from
-- a day on, from the index alone, tombstones left out (worker/jobs/job-caps.ts).
ALTER TABLE `jobs` ADD `assigned_at` integer;
--> statement-breakpoint
ALTER TABLE `jobs` ADD `device_time_refused` integer;
--> statement-breakpoint
CREATE INDEX `jobs_ws_live_date_idx` ON `jobs` (`workspace_id`, `date`, `vehicle_id`) WHERE `deleted` = 0;
