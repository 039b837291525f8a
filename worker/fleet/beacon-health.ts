import { and, eq } from "drizzle-orm";
import {
  DEVICE_APPS,
  type BeaconHealth,
  type DeviceApp,
  type DeviceIdRotation,
} from "../../shared/fleet/beacon-health";
import type { Db } from "../../db/client";
import { beacons } from "../../db/schema";
import { randomToken } from "../lib/crypto";

/**
 * A vehicle's beacon as its operators see it: health counters kept by ingestion
 * (party/live-fleet/, flushed to D1) plus the reports stored since `since`, counted by the workspace's object
 * (`countStored`: its positions, docs/decisions/0023) so ingestion pays nothing for it. Always
 * scoped to the caller's workspace: another workspace's vehicle reads as absent (null).
 */
export async function beaconHealth(
  db: Db,
  workspaceId: string,
  vehicleId: string,
  since: number,
  ingestUrl: string,
  countStored: (vehicleId: string, since: number) => Promise<number>,
): Promise<BeaconHealth | null> {
  const b = await db
    .select()
    .from(beacons)
    .where(and(eq(beacons.vehicleId, vehicleId), eq(beacons.workspaceId, workspaceId)))
    .get();
  if (!b) return null;
  const reportsToday = await countStored(vehicleId, since);
  return {
    vehicleId,
    deviceId: b.id,
    ingestUrl,
    lastReportAt: b.lastReportAt,
    lastApp: deviceAppOf(b.lastApp),
    reportsToday,
    clockSkewMs: b.clockSkewMs,
    clockSkewAt: b.clockSkewAt,
    rejected: {
      clock_ahead: b.rejectedClockAhead,
      too_old: b.rejectedTooOld,
      throttled: b.rejectedThrottled,
      no_position: b.rejectedNoPosition,
    },
    lastNoPositionAt: b.lastNoPositionAt,
    lastRejectedAt: b.lastRejectedAt,
    lastRejectedReason: b.lastRejectedReason as BeaconHealth["lastRejectedReason"],
    rotatedAt: b.rotatedAt,
  };
}

const deviceAppOf = (app: string | null): DeviceApp | null =>
  DEVICE_APPS.includes(app as DeviceApp) ? (app as DeviceApp) : null;

/**
 * Gives a vehicle's beacon a new device id, for a leaked one: the old id is unknown from the next
 * report on (ingestion reads beacons by id on every batch, nothing caches a known id). Positions
 * already stored keep the id they came with; the vehicle's history is by vehicle, so it goes on.
 * Returns null when the vehicle has no beacon in this workspace.
 */
export async function rotateDeviceId(
  db: Db,
  workspaceId: string,
  vehicleId: string,
  ingestUrl: string,
  now = Date.now(),
): Promise<DeviceIdRotation | null> {
  const deviceId = randomToken(24);
  const row = await db
    .update(beacons)
    .set({ id: deviceId, rotatedAt: now })
    .where(and(eq(beacons.vehicleId, vehicleId), eq(beacons.workspaceId, workspaceId)))
    .returning({ id: beacons.id })
    .get();
  return row ? { deviceId: row.id, ingestUrl, rotatedAt: now } : null;
}
