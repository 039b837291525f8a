import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { alerts, workspaces } from "../../db/schema";

/** Alerts are kept this long, then deleted (issue 21). */
export const ALERT_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * Run by the cron: alerts older than 90 days are soft-deleted in one transaction (their
 * workspaces' versions bumped and the rows stamped with them, so every Inbox gets a `del`); the
 * tombstone collector removes the rows later. Returns the workspaces that changed, to announce.
 */
export async function expireOldAlerts(db: Db, now = Date.now()): Promise<string[]> {
  const cutoff = now - ALERT_RETENTION_MS;
  const expired = and(lt(alerts.at, cutoff), eq(alerts.deleted, false));
  const affected = (
    await db.selectDistinct({ id: alerts.workspaceId }).from(alerts).where(expired).limit(500).all()
  ).map((r) => r.id);
  if (!affected.length) return [];
  await db.batch([
    db
      .update(workspaces)
      .set({ version: sql`${workspaces.version} + 1` })
      .where(inArray(workspaces.id, affected)),
    db
      .update(alerts)
      .set({ deleted: true, version: sql`(SELECT "version" FROM "workspaces" WHERE "id" = ${alerts.workspaceId})` })
      .where(and(expired, inArray(alerts.workspaceId, affected))),
  ]);
  return affected;
}
