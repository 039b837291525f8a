-- Issue 42: a workspace's units (Preferences, docs/decisions/0060): 'us' (miles, US gallons, mpg)
-- or 'metric' (km, litres, L/100 km). Only what the screens show changes: distances stay miles and
-- volumes litres in D1 and in the API.
ALTER TABLE `workspaces` ADD `units` text DEFAULT 'us' NOT NULL;
