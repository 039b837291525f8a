import { and, eq, inArray } from "drizzle-orm";
import type { FleetModule } from "../fleet/fold";
import { placesAlertsModule, type WorkspaceWatch } from "./module";
import { PlaceIndex } from "../places/place-index";
import type { Db } from "../../db/client";
import { alertRules, places } from "../../db/schema";

/**
 * Each workspace's places (behind their R-tree) and alert rules, as ingestion's places-and-alerts
 * module needs them (docs/decisions/0019). Kept per isolate for WATCH_TTL_MS so a report costs no
 * extra read; a write to places or rules drops its workspace's entry in this isolate at once (the
 * REST routes and sync mutators call `forgetWatch`), other isolates see it within the TTL. The
 * workspace's Durable Object, once it holds ingestion, keeps these in memory and is told directly.
 */
export const WATCH_TTL_MS = 10_000;
const MAX_WORKSPACES = 256;
const cache = new Map<string, { at: number; watch: WorkspaceWatch }>();

export function forgetWatch(workspaceId: string) {
  cache.delete(workspaceId);
}

/** The watches of these workspaces, reading D1 (one batch) only for those not fresh here. */
export async function loadWatches(db: Db, workspaceIds: string[], now = Date.now()): Promise<Map<string, WorkspaceWatch>> {
  const missing = workspaceIds.filter((id) => {
    const hit = cache.get(id);
    return !hit || now - hit.at > WATCH_TTL_MS;
  });
  if (missing.length) {
    const [placeRows, ruleRows] = await db.batch([
      db.select({ id: places.id, workspaceId: places.workspaceId, geometry: places.geometry }).from(places).where(and(inArray(places.workspaceId, missing), eq(places.deleted, false))),
      db.select({ id: alertRules.id, workspaceId: alertRules.workspaceId, config: alertRules.config }).from(alertRules).where(and(inArray(alertRules.workspaceId, missing), eq(alertRules.deleted, false))),
    ]);
    for (const id of missing) {
      const watch: WorkspaceWatch = {
        index: new PlaceIndex(placeRows.filter((p) => p.workspaceId === id)),
        rules: ruleRows.filter((r) => r.workspaceId === id).map((r) => ({ ...r.config, id: r.id })),
      };
      if (cache.size >= MAX_WORKSPACES) cache.delete(cache.keys().next().value!);
      cache.set(id, { at: now, watch });
    }
  }
  return new Map(workspaceIds.map((id) => [id, cache.get(id)!.watch]));
}

/** The fleet modules for one ingestion batch over these workspaces. */
export async function placesAlertsModules(db: Db, workspaceIds: string[]): Promise<FleetModule[]> {
  const watches = await loadWatches(db, workspaceIds);
  return [placesAlertsModule((workspaceId) => watches.get(workspaceId)) as FleetModule];
}
