import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { beacons, vehicles } from "../../db/schema";
import { INACTIVE_AFTER_MS } from "../../domain/alerts/beacon-watch";
import type { Env } from "../env";
import { runWorkspaceTasks } from "../workspace-object";

/**
 * The cron's part in beacon silence (docs/decisions/0059): none of the writing, which is the
 * workspace object's (party/beacon-watch/), only a wake for an object that has due work and no
 * alarm to tell it: one whose vehicles went silent before it ever set its watch's alarm (the
 * deploy that moved the watch into the object, or an alarm lost). One read-only query a minute;
 * once the object has run, its vehicles are INACTIVE and the query no longer finds it.
 */
export async function wakeSilentWorkspaces(db: Db, env: Env, now = Date.now()): Promise<string[]> {
  const rows = await db
    .selectDistinct({ workspaceId: vehicles.workspaceId })
    .from(vehicles)
    .innerJoin(beacons, eq(beacons.vehicleId, vehicles.id))
    .where(and(eq(vehicles.beaconStatus, "ACTIVE"), sql`${beacons.lastReportAt} < ${now - INACTIVE_AFTER_MS}`))
    .all();
  const woken: string[] = [];
  for (const { workspaceId } of rows) {
    // One object failing to wake delays only itself: the next minute asks again.
    await runWorkspaceTasks(env, workspaceId)
      .then(() => woken.push(workspaceId))
      .catch((error: unknown) => console.error(`waking workspace ${workspaceId}'s object failed:`, error));
  }
  return woken;
}
