import { and, eq, inArray, isNull, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db, LiveWrites } from "../../db/client";
import { alerts, beacons, telemetry, vehicles } from "../../db/schema";
import { bulkInsert, bulkUpdate } from "../../db/bulk";
import { commitWrite, type Announce } from "../../db/writer";
import type { AlertChanges, OpenBeaconAlert, WatchedBeacon } from "../../domain/alerts/beacon-watch";

/** An open alert the watch keeps, with its type (the two rules each read their own). */
export type OpenWatchAlert = OpenBeaconAlert & { type: "beacon_silent" | "clock_ahead" };

/** What D1 holds that the object may not: read once per instance, on the watch's first run. */
export interface WatchSnapshot {
  /** Every beacon of the workspace as D1 last saw it (devices this object never held included). */
  beacons: WatchedBeacon[];
  open: OpenWatchAlert[];
  /** Vehicles D1 says are INACTIVE. */
  inactive: Set<string>;
}

/** One batch: the workspace's beacons with their last position, its open watch alerts, its INACTIVE vehicles. */
export async function readWatchSnapshot(db: Db, workspaceId: string): Promise<WatchSnapshot> {
  const [beaconRows, openRows, inactiveRows] = await db.batch([
    db
      .select({
        vehicleId: beacons.vehicleId,
        lastReportAt: beacons.lastReportAt,
        lastRejectedAt: beacons.lastRejectedAt,
        lastRejectedReason: beacons.lastRejectedReason,
        clockSkewMs: beacons.clockSkewMs,
        latitude: telemetry.latitude,
        longitude: telemetry.longitude,
      })
      .from(beacons)
      .leftJoin(telemetry, and(eq(telemetry.vehicleId, beacons.vehicleId), eq(telemetry.workspaceId, workspaceId)))
      .where(eq(beacons.workspaceId, workspaceId)),
    db
      .select({
        id: alerts.id,
        ruleId: alerts.ruleId,
        vehicleId: alerts.vehicleId,
        at: alerts.at,
        peak: alerts.peak,
        type: alerts.type,
      })
      .from(alerts)
      .where(
        and(
          eq(alerts.workspaceId, workspaceId),
          inArray(alerts.type, ["beacon_silent", "clock_ahead"]),
          isNull(alerts.endAt),
          eq(alerts.deleted, false),
        ),
      ),
    db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.workspaceId, workspaceId), eq(vehicles.beaconStatus, "INACTIVE"))),
  ]);
  return {
    beacons: beaconRows,
    open: openRows as OpenWatchAlert[],
    inactive: new Set(inactiveRows.map((v) => v.id)),
  };
}

/**
 * One transaction of the object's live write path: the version bumped as the flush bumps it (the
 * tables are live ones, docs/decisions/0059), vehicles gone silent made INACTIVE, alerts opened,
 * ended or raised, every row stamped, then `announce` (the object's poke). Idempotent: a run cut
 * short and made again writes the same.
 */
export async function writeWatchChanges(
  db: Db,
  workspaceId: string,
  inactive: string[],
  changes: AlertChanges,
  announce: Announce,
): Promise<void> {
  const writes = (stamp: SQL<number>, live: LiveWrites) => watchWrites(live, stamp, workspaceId, inactive, changes);
  await commitWrite(db, workspaceId, writes, { bump: "live", announce });
}

function watchWrites(
  db: LiveWrites,
  stamp: SQL<number>,
  workspaceId: string,
  inactive: string[],
  changes: AlertChanges,
): BatchItem<"sqlite">[] {
  const writes: BatchItem<"sqlite">[] = [
    ...bulkUpdate(
      db,
      vehicles,
      inactive.map((id) => ({ id, beaconStatus: "INACTIVE" })),
      {
        key: vehicles.id,
        scope: { column: vehicles.workspaceId, value: workspaceId },
        stampVersion: vehicles.version,
        unless: { column: vehicles.beaconStatus, value: "INACTIVE" },
      },
    ),
    ...bulkInsert(
      db,
      alerts,
      changes.opened.map((a) => ({ ...a, workspaceId, version: 0 })),
      { onConflict: "nothing", stampVersion: alerts.version },
    ),
  ];
  for (const { id, ...set } of changes.updated)
    writes.push(
      db
        .update(alerts)
        .set({ ...set, version: stamp })
        .where(and(eq(alerts.id, id), eq(alerts.workspaceId, workspaceId))),
    );
  return writes;
}
