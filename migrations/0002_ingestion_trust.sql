-- Ingestion you can trust (issue 12): beacon health counters, a revocable device id, a GPS
-- odometer, and one writer per vehicle for the trip/stop detector's state.

-- Beacon health: what the device sent that was acknowledged but not used, and its clock skew.
ALTER TABLE `beacons` ADD `rejected_clock_ahead` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `beacons` ADD `rejected_too_old` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `beacons` ADD `rejected_throttled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `beacons` ADD `last_rejected_at` integer;--> statement-breakpoint
ALTER TABLE `beacons` ADD `last_rejected_reason` text;--> statement-breakpoint
ALTER TABLE `beacons` ADD `clock_skew_ms` integer;--> statement-breakpoint
ALTER TABLE `beacons` ADD `clock_skew_at` integer;--> statement-breakpoint
ALTER TABLE `beacons` ADD `rotated_at` integer;--> statement-breakpoint
CREATE INDEX `beacons_vehicle_idx` ON `beacons` (`vehicle_id`);--> statement-breakpoint

-- The GPS odometer (running distance of accepted fixes) lives with the detector's state.
ALTER TABLE `motion_state` ADD `odometer` text;--> statement-breakpoint
-- One writer per vehicle (docs/decisions/0009): every write of a vehicle's motion state names the
-- next version of what it read; a write based on a stale read aborts its whole batch (one D1
-- transaction), and the ingester reads again and retries.
ALTER TABLE `motion_state` ADD `version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TRIGGER `motion_state_one_writer` BEFORE UPDATE ON `motion_state`
WHEN NEW.`version` <> OLD.`version` + 1
BEGIN
	SELECT RAISE(ABORT, 'stale motion state');
END;
