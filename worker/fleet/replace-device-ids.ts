import { and, eq } from "drizzle-orm";
import type { ReplacedDeviceIds } from "../../shared/fleet/beacon-health";
import type { Db } from "../../db/client";
import { beacons, vehicles } from "../../db/schema";
import { randomToken } from "../lib/crypto";
import { forgetDevice } from "./device-directory";

/**
 * Gives every beacon of a workspace a new device id at once (issue 34): what an owner does after
 * someone who could read the ids leaves. Each old id is unknown from the next report on: the D1
 * rows change in one batch, this isolate's device directory forgets each old id through its own
 * function, and the caller tells the workspace's object (which owns its devices) to forget them.
 * Positions already stored keep the id they came with; vehicles and their history go on.
 */
export async function replaceDeviceIds(
  db: Db,
  workspaceId: string,
  ingestUrl: string,
  now = Date.now(),
): Promise<ReplacedDeviceIds> {
  const current = await db
    .select({ id: beacons.id, vehicleId: beacons.vehicleId, vehicleName: vehicles.name })
    .from(beacons)
    .leftJoin(vehicles, and(eq(vehicles.id, beacons.vehicleId), eq(vehicles.workspaceId, beacons.workspaceId)))
    .where(eq(beacons.workspaceId, workspaceId))
    .all();
  const replaced = current.map((b) => ({
    oldId: b.id,
    vehicleId: b.vehicleId,
    vehicleName: b.vehicleName ?? "",
    deviceId: randomToken(24),
  }));
  if (replaced.length) {
    const [first, ...rest] = replaced.map((b) =>
      db
        .update(beacons)
        .set({ id: b.deviceId, rotatedAt: now })
        .where(and(eq(beacons.id, b.oldId), eq(beacons.workspaceId, workspaceId))),
    );
    await db.batch([first!, ...rest]);
  }
  for (const b of replaced) forgetDevice(b.oldId);
  return {
    replacedAt: now,
    ingestUrl,
    beacons: replaced.map(({ vehicleId, vehicleName, deviceId }) => ({ vehicleId, vehicleName, deviceId })),
  };
}
