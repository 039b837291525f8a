-- The data plane (issue 19, docs/decisions/0016): ingestion is read -> a pure fold -> write, and
-- modules plugged into the fold (places and alerts, daily rollups) keep per-vehicle state of their
-- own. It is stored with the detector's state, as JSON keyed by module name (null: none yet).
ALTER TABLE `motion_state` ADD `modules` text;
