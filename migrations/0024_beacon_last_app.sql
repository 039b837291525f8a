-- Issue 44: which app (or protocol) sent a beacon's last report, shown on its page so an operator
-- sees at once that a phone works: osmand | traccar_client | owntracks | overland. Written by the
-- workspace object's flush with the beacon's other health fields; null until the next report.
ALTER TABLE `beacons` ADD `last_app` text;
