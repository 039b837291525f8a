import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { beacons } from "../../db/schema";
import { MAX_KEYS } from "../../party/fleet/token-buckets";

/**
 * Which workspace a device id reports into, so the edge knows which object to send its reports
 * to (docs/decisions/0016, part 4). Kept per isolate: a hit costs nothing, a miss reads D1
 * `beacons` once. A beacon never changes workspace, so a kept entry can only go stale by its id
 * being rotated away, and then the workspace's object, which owns its devices, answers unknown
 * (the edge then calls `forgetDevice`). Entries expire after KNOWN_TTL_MS all the same, to bound
 * what an isolate keeps of ids nobody uses any more.
 */
export const KNOWN_TTL_MS = 10 * 60_000;
const known = new Map<string, { workspaceId: string; until: number }>();

export async function workspaceOfDevice(db: Db, deviceId: string, now = Date.now()): Promise<string | null> {
  const hit = known.get(deviceId);
  if (hit && hit.until > now) return hit.workspaceId;
  const row = await db.select({ workspaceId: beacons.workspaceId }).from(beacons).where(eq(beacons.id, deviceId)).get();
  known.delete(deviceId);
  if (!row) return null;
  known.set(deviceId, { workspaceId: row.workspaceId, until: now + KNOWN_TTL_MS });
  if (known.size > MAX_KEYS) known.delete(known.keys().next().value!);
  return row.workspaceId;
}

export function forgetDevice(deviceId: string) {
  known.delete(deviceId);
}
