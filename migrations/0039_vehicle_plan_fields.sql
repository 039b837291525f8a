-- Plan the day (issue 54, docs/decisions/0076): what the planner reads of a vehicle. All optional:
-- no capacity is unbounded, no shift is the plan request's (or 08:00-18:00), no home place is the
-- request's start and end (or an open route). Shifts are "HH:MM", local, not crossing midnight.
ALTER TABLE `vehicles` ADD `capacity` real;
--> statement-breakpoint
ALTER TABLE `vehicles` ADD `shift_start` text;
--> statement-breakpoint
ALTER TABLE `vehicles` ADD `shift_end` text;
--> statement-breakpoint
ALTER TABLE `vehicles` ADD `home_place_id` text;
