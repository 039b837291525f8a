import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { beacons } from "../../db/schema";
import { MAX_KEYS } from "../../domain/limits/token-buckets";

/**
 * Which workspace a device id reports into, so the edge knows which object to send its reports
 * to (docs/decisions/0016, part 4; 0027, part 4). Kept per isolate: a hit costs nothing; a miss
 * reads Workers KV (`DEVICE_DIRECTORY`, written when a beacon is ordered), and D1 `beacons` only
 * when KV has no entry (a device older than the directory, or one KV has not propagated yet),
 * writing KV back, so a device seen before reports with D1 down. A beacon never changes workspace, so a kept entry can only go stale by its id
 * being rotated away, and then the workspace's object, which owns its devices, answers unknown
 * (the edge then calls `forgetDevice`). Entries expire after KNOWN_TTL_MS all the same, to bound
 * what an isolate keeps of ids nobody uses any more.
 */
export const KNOWN_TTL_MS = 10 * 60_000;
const known = new Map<string, { workspaceId: string; until: number }>();

export async function workspaceOfDevice(
  db: Db,
  deviceId: string,
  now = Date.now(),
  directory?: KVNamespace,
): Promise<string | null> {
  const hit = known.get(deviceId);
  if (hit && hit.until > now) return hit.workspaceId;
  known.delete(deviceId);
  const listed = directory ? await directory.get(deviceId, { cacheTtl: KV_CACHE_S }) : null;
  const workspaceId =
    listed ??
    (await db.select({ workspaceId: beacons.workspaceId }).from(beacons).where(eq(beacons.id, deviceId)).get())
      ?.workspaceId;
  if (!workspaceId) return null;
  if (directory && !listed) await directory.put(deviceId, workspaceId);
  known.set(deviceId, { workspaceId, until: now + KNOWN_TTL_MS });
  if (known.size > MAX_KEYS) known.delete(known.keys().next().value!);
  return workspaceId;
}

/** How long a KV read may be served from the edge's cache (KV's minimum is 30 s). */
const KV_CACHE_S = 300;

/** Lists new devices in the directory (after their D1 rows committed). */
export async function listDevices(
  directory: KVNamespace | undefined,
  devices: { id: string }[],
  workspaceId: string,
): Promise<void> {
  if (directory) await Promise.all(devices.map((d) => directory.put(d.id, workspaceId)));
}

/** The device is unknown to its workspace's object (its id was replaced): forgotten here and in the directory. */
export function forgetDevice(deviceId: string, directory?: KVNamespace): Promise<void> {
  known.delete(deviceId);
  return directory ? directory.delete(deviceId) : Promise.resolve();
}
