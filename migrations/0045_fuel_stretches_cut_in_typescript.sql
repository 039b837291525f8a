-- Issue 52 ("one fact, one home"), docs/decisions/0078: the cost report's stored fuel stretches are
-- cut by the one rule, shared/costs/fuel-economy.ts `storedStretchesOf`, in the batch that writes a
-- vehicle's fill-up (worker/fuel/fuel-stretches.ts), not by 0036's triggers, a second writing of it
-- in SQL. The stretches already stored are those the rule cuts (0036's equivalence test held them
-- to it), so they stay; `npm run fuel-stretches` cuts them again after a restore or a bulk load.
DROP TRIGGER `fuel_entries_stretches_insert`;
--> statement-breakpoint
DROP TRIGGER `fuel_entries_stretches_update`;
--> statement-breakpoint
DROP TRIGGER `fuel_entries_stretches_delete`;
--> statement-breakpoint
DROP TRIGGER `fuel_stretch_rebuild`;
--> statement-breakpoint
DROP TABLE `fuel_stretch_rebuilds`;
--> statement-breakpoint
-- The newest version among a vehicle's fill-ups in one seek: a write's batch checks it is still the
-- one its stretches were cut from.
CREATE INDEX `fuel_entries_ws_vehicle_version_idx` ON `fuel_entries` (`workspace_id`, `vehicle_id`, `version`);
