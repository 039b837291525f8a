-- The synced set now keeps each vehicle's 3 latest timeline events (it kept 10): the timeline shows
-- 3 (docs/decisions/0013). Older live events are soft-deleted the way ingestion prunes them
-- (worker/fleet/ingest.ts), stamped with a bumped workspace version so clients get their `del`.
-- The rows stay in D1.
UPDATE workspaces SET version = version + 1
WHERE id IN (
  SELECT workspace_id FROM (
    SELECT workspace_id, deleted, ROW_NUMBER() OVER (PARTITION BY vehicle_id ORDER BY start_time DESC, id DESC) AS rn FROM vehicle_events
  ) WHERE rn > 3 AND deleted = 0
);
--> statement-breakpoint
UPDATE vehicle_events
SET deleted = 1, version = (SELECT version FROM workspaces w WHERE w.id = vehicle_events.workspace_id)
WHERE deleted = 0 AND id IN (
  SELECT id FROM (
    SELECT id, ROW_NUMBER() OVER (PARTITION BY vehicle_id ORDER BY start_time DESC, id DESC) AS rn FROM vehicle_events
  ) WHERE rn > 3
);
