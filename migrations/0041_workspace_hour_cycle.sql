-- Issue 52: a workspace's hour cycle (Preferences, docs/decisions/0079): 'h12' (3:19 PM) or 'h23'
-- (15:19). NULL until an owner or admin chooses: the workspace then reads the clock of its time
-- zone's country (shared/units/clock.ts defaultHourCycle), so a new zone brings its own default.
ALTER TABLE `workspaces` ADD `hour_cycle` text;
