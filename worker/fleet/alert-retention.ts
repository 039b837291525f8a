import { and, eq, inArray, lt } from "drizzle-orm";
import { alerts } from "../../db/schema";
import { commitWorkspacesWrite, type WriteContext } from "../workspace-object";

/** Alerts are kept this long, then deleted (issue 21). */
export const ALERT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** Workspaces whose old alerts one cron run expires; the rest wait for the next minute's run. */
export const WORKSPACES_PER_RUN = 500;

/**
 * Run by the cron: alerts older than 90 days are soft-deleted, for up to 500 workspaces in one
 * transaction through the one writer (commitWorkspacesWrite: their versions bumped and the rows
 * stamped with them, so every Inbox gets a `del`, and each workspace's pages are poked). The rows
 * stay as tombstones until worker/sync/tombstones.ts collects them, 30 days on. Returns the workspaces that changed.
 */
export async function expireOldAlerts(
  w: Pick<WriteContext, "env" | "db"> & Partial<Pick<WriteContext, "waitUntil">>,
  now = Date.now(),
): Promise<string[]> {
  const expired = and(lt(alerts.at, now - ALERT_RETENTION_MS), eq(alerts.deleted, false));
  const affected = (
    await w.db.selectDistinct({ id: alerts.workspaceId }).from(alerts).where(expired).limit(WORKSPACES_PER_RUN).all()
  ).map((r) => r.id);
  await commitWorkspacesWrite(w, affected, (part, stampOf, live) => [
    live
      .update(alerts)
      .set({ deleted: true, version: stampOf(alerts.workspaceId) })
      // in-list: one of commitWorkspacesWrite's inLists parts.
      .where(and(expired, inArray(alerts.workspaceId, part))),
  ]);
  return affected;
}
