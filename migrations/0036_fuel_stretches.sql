-- The cost report's economy from stored stretches (issue 42, docs/decisions/0064): each full-to-full
-- stretch of a vehicle's fuel log, as shared/costs/fuel-economy.ts `stretchesOf` cuts it, with the
-- sums and the flags that depend on the log alone (odometers missing or backwards), keyed by its
-- closing fill-up in log order (time, then id), so the report reads stretches in order from the
-- primary key instead of windowing and sorting every fill-up. What can change without a fill-up
-- changing is judged when the report reads: over the tank (the vehicle's tank, against the largest
-- fill kept here) and `no_rise_seen` (the beacon's fuel events and the clock).
CREATE TABLE `fuel_stretches` (
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`) ON DELETE cascade,
	`vehicle_id` text NOT NULL,
	`close_at` integer NOT NULL,
	`close_id` text NOT NULL,
	`miles` real NOT NULL,
	`litres` real NOT NULL,
	`largest_litres` real NOT NULL,
	`doubtful` integer NOT NULL,
	`highest_before` real,
	`rate` real,
	PRIMARY KEY (`workspace_id`, `vehicle_id`, `close_at`, `close_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- A request to recut a vehicle's stretches from a moment on; the trigger below does it and empties
-- the table again. Every writer of fuel_entries (REST, push, seeding) goes through the triggers on
-- it, in the writing statement's own transaction, so the stretches never drift from the log.
CREATE TABLE `fuel_stretch_rebuilds` (
	`workspace_id` text NOT NULL,
	`vehicle_id` text NOT NULL,
	`from_at` integer NOT NULL
);
--> statement-breakpoint
-- Stretches closing at or after `from_at` are cut again from the last full fill-up before it (which
-- opens the first of them): the fill-ups from there on, in order, with the highest odometer before
-- that one (kept on its own stretch, or read when it closes none) for `odometer_backwards`.
CREATE TRIGGER `fuel_stretch_rebuild` AFTER INSERT ON `fuel_stretch_rebuilds`
BEGIN
DELETE FROM `fuel_stretches` WHERE `workspace_id` = NEW.`workspace_id` AND `vehicle_id` = NEW.`vehicle_id` AND `close_at` >= NEW.`from_at`;
INSERT INTO `fuel_stretches` (`workspace_id`, `vehicle_id`, `close_at`, `close_id`, `miles`, `litres`, `largest_litres`, `doubtful`, `highest_before`, `rate`)
SELECT NEW.`workspace_id`, NEW.`vehicle_id`, close_at, close_id, miles, litres, largest, doubtful, close_highest_before,
  CASE WHEN NOT doubtful AND litres > 0 THEN miles / litres END
FROM (SELECT *, CASE WHEN open_odo IS NOT NULL AND close_odo IS NOT NULL THEN close_odo - open_odo ELSE 0 END AS miles,
  (open_odo IS NULL OR close_odo IS NULL OR close_odo - open_odo <= 0 OR coalesce(open_backwards, 0) OR any_backwards) AS doubtful
FROM (
  SELECT g.*, lag(close_odo) OVER by_grp AS open_odo, lag(close_backwards) OVER by_grp AS open_backwards
  FROM (
    SELECT grp, max(full) AS closed, max(CASE WHEN full THEN at END) AS close_at, max(CASE WHEN full THEN id END) AS close_id,
      sum(litres) AS litres, max(litres) AS largest, max(backwards) AS any_backwards,
      max(CASE WHEN full THEN odo END) AS close_odo, max(CASE WHEN full THEN backwards END) AS close_backwards,
      max(CASE WHEN full THEN highest_before END) AS close_highest_before
    FROM (
      SELECT at, id, volume_litres AS litres, full_tank AS full, odometer_miles AS odo, highest_before,
        coalesce(odometer_miles < highest_before, 0) AS backwards, coalesce(fulls_before, 0) AS grp
      FROM (
        SELECT at, id, volume_litres, full_tank, odometer_miles, sum(full_tank) OVER before AS fulls_before,
          max(coalesce(max(odometer_miles) OVER before, seed), coalesce(seed, max(odometer_miles) OVER before)) AS highest_before
        FROM `fuel_entries`, (
          SELECT CASE WHEN s.close_id IS NOT NULL THEN s.highest_before ELSE (
              SELECT max(e.odometer_miles) FROM `fuel_entries` e
              WHERE e.workspace_id = NEW.`workspace_id` AND e.vehicle_id = NEW.`vehicle_id` AND e.deleted = 0 AND (e.at, e.id) < (p.at, p.id)
            ) END AS seed, p.at AS p_at, p.id AS p_id
          FROM (SELECT 1) LEFT JOIN (
            SELECT at, id FROM `fuel_entries`
            WHERE workspace_id = NEW.`workspace_id` AND vehicle_id = NEW.`vehicle_id` AND deleted = 0 AND full_tank = 1 AND at < NEW.`from_at`
            ORDER BY at DESC, id DESC LIMIT 1
          ) p LEFT JOIN `fuel_stretches` s
            ON s.workspace_id = NEW.`workspace_id` AND s.vehicle_id = NEW.`vehicle_id` AND s.close_at = p.at AND s.close_id = p.id
        ) opener
        WHERE workspace_id = NEW.`workspace_id` AND vehicle_id = NEW.`vehicle_id` AND deleted = 0
          AND (opener.p_at IS NULL OR (at, id) >= (opener.p_at, opener.p_id))
        WINDOW before AS (ORDER BY at, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
      )
    ) GROUP BY grp
  ) g
  WINDOW by_grp AS (ORDER BY grp)
) WHERE grp > 0 AND closed);
DELETE FROM `fuel_stretch_rebuilds`;
END;
--> statement-breakpoint
-- A vehicle's clean stretches (as far as the log tells) by their miles per litre, for the median
-- that marks outliers: read in order, with no sort.
CREATE INDEX `fuel_stretches_rate_idx` ON `fuel_stretches` (`workspace_id`, `vehicle_id`, `rate`, `close_at`, `largest_litres`, `close_id`) WHERE `rate` IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `fuel_entries_stretches_insert` AFTER INSERT ON `fuel_entries`
BEGIN INSERT INTO `fuel_stretch_rebuilds` VALUES (NEW.`workspace_id`, NEW.`vehicle_id`, NEW.`at`); END;
--> statement-breakpoint
-- Only a change the stretches read (an edit writes every field, changed or not; a stamp writes none).
CREATE TRIGGER `fuel_entries_stretches_update` AFTER UPDATE OF `at`, `volume_litres`, `full_tank`, `odometer_miles`, `deleted` ON `fuel_entries`
WHEN OLD.`at` IS NOT NEW.`at` OR OLD.`volume_litres` IS NOT NEW.`volume_litres` OR OLD.`full_tank` IS NOT NEW.`full_tank`
  OR OLD.`odometer_miles` IS NOT NEW.`odometer_miles` OR OLD.`deleted` IS NOT NEW.`deleted`
BEGIN INSERT INTO `fuel_stretch_rebuilds` VALUES (NEW.`workspace_id`, NEW.`vehicle_id`, min(OLD.`at`, NEW.`at`)); END;
--> statement-breakpoint
-- A row deleted outright: its workspace's deletion (whose stretches go with it) or a cleanup.
CREATE TRIGGER `fuel_entries_stretches_delete` AFTER DELETE ON `fuel_entries`
WHEN EXISTS (SELECT 1 FROM `workspaces` WHERE `id` = OLD.`workspace_id`)
BEGIN INSERT INTO `fuel_stretch_rebuilds` VALUES (OLD.`workspace_id`, OLD.`vehicle_id`, OLD.`at`); END;
--> statement-breakpoint
-- The stretches of the fill-ups logged so far.
INSERT INTO `fuel_stretch_rebuilds` SELECT DISTINCT `workspace_id`, `vehicle_id`, -1 FROM `fuel_entries`;
