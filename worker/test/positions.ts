import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { StoredFix } from "../../party/positions/codec";
import { database } from "../../db/client";
import { beacons } from "../../db/schema";

/**
 * The fixes a beacon's reports left in a workspace's object (docs/decisions/0023), every tier,
 * oldest first, each with the workspace whose object holds it: by default the beacon's own.
 * Tests read positions here where they once read D1's `positions` table.
 */
export async function storedPositions(
  deviceId: string,
  workspaceId?: string,
): Promise<(StoredFix & { workspaceId: string; vehicleId: string })[]> {
  const beacon = await database(env.DB).select().from(beacons).where(eq(beacons.id, deviceId)).get();
  if (!beacon) return [];
  const objectOf = workspaceId ?? beacon.workspaceId;
  const room = env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(objectOf));
  const fixes = (await room.readPositions(beacon.vehicleId, -8.64e15, 8.64e15)) as StoredFix[];
  return fixes
    .filter((f) => f.beaconId === deviceId)
    .map((f) => ({ ...f, workspaceId: objectOf, vehicleId: beacon.vehicleId }));
}
