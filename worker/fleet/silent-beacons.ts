import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { beacons, vehicles } from "../../db/schema";
import { chunkRows } from "../../db/chunk";
import { bumpVersion, versionOf } from "../../db/workspace-version";

/**
 * Reports are ingested by each workspace's Durable Object (party/live-fleet/live-fleet.ts, reached from
 * the edge in worker/api/ingest.ts; docs/decisions/0016). What stays here is the one fleet rule
 * that runs across workspaces from the Worker's cron: beacons that went silent stop being ACTIVE.
 * The object never hears of it: its next flush writes ACTIVE again for every vehicle that
 * reported, unless D1 already says so (party/live-fleet/flush-batch.ts).
 */

/** Beacons silent for this long stop being ACTIVE (run from the Worker's cron trigger). */
export const INACTIVE_AFTER_MS = 15 * 60_000;

export async function markSilentBeaconsInactive(db: Db, now = Date.now()) {
  const silent = await db
    .select({ vehicleId: vehicles.id, workspaceId: vehicles.workspaceId })
    .from(vehicles)
    .innerJoin(beacons, eq(beacons.vehicleId, vehicles.id))
    .where(and(eq(vehicles.beaconStatus, "ACTIVE"), sql`${beacons.lastReportAt} < ${now - INACTIVE_AFTER_MS}`))
    .all();
  const byWorkspace = new Map<string, string[]>();
  for (const s of silent) byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s.vehicleId]);
  for (const [workspaceId, ids] of byWorkspace) {
    await db.batch([
      bumpVersion(db, workspaceId),
      ...chunkRows(ids, 1).map((part) =>
        db
          .update(vehicles)
          .set({ beaconStatus: "INACTIVE", version: versionOf(workspaceId) })
          .where(inArray(vehicles.id, part)),
      ),
    ]);
  }
  return [...byWorkspace.keys()];
}
