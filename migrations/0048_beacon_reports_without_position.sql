-- Issue 56, docs/decisions/0090: a beacon's reports that carried no position (an OsmAnd report with
-- only cells and Wi-Fi access points) are counted on its health, beside the other reports
-- acknowledged but not used, with when the last one came. Written by the workspace object's flush.
ALTER TABLE `beacons` ADD `rejected_no_position` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `beacons` ADD `last_no_position_at` integer;
