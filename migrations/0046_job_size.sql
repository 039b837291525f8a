-- A job's size (issue 54): how much of a vehicle's capacity it takes when the day is planned.
-- Every job so far was 1 to the planner; the check is the API's own bound (shared/jobs/job-fields.ts).
ALTER TABLE `jobs` ADD `size` integer DEFAULT 1 NOT NULL CHECK (`size` >= 1);
