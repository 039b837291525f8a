import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import type { StoredFix } from "../../party/positions/codec";
import type { RoomPositions } from "../../party/room/positions";
import { database } from "../../db/client";
import { beacons } from "../../db/schema";
import { withRoomParts } from "./room-parts";

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
  const fixes = await positionsIn(objectOf).read(beacon.vehicleId, -8.64e15, 8.64e15);
  return fixes
    .filter((f) => f.beaconId === deviceId)
    .map((f) => ({ ...f, workspaceId: objectOf, vehicleId: beacon.vehicleId }));
}

/**
 * A workspace's positions (party/room/positions.ts) made alone over its object's storage
 * (worker/test/room-parts.ts) and driven as the room drives them: append (imports), maintain (the
 * alarm's job, at a chosen time), read, and the rest.
 */
export function positionsIn(workspaceId: string) {
  const inObject = <T>(use: (positions: RoomPositions) => Promise<T> | T) =>
    withRoomParts(workspaceId, (parts) => use(parts.positions));
  return {
    append: (...args: Parameters<RoomPositions["append"]>) => inObject((p) => p.append(...args)),
    maintain: (...args: Parameters<RoomPositions["maintain"]>) => inObject((p) => p.maintain(...args)),
    read: (...args: Parameters<RoomPositions["read"]>) => inObject((p) => p.read(...args)),
    storedKeys: (...args: Parameters<RoomPositions["storedKeys"]>) => inObject((p) => p.storedKeys(...args)),
    setRetention: (...args: Parameters<RoomPositions["setRetention"]>) => inObject((p) => p.setRetention(...args)),
  };
}
