import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { alerts, workspaces } from "../../db/schema";
import { inLists } from "../../db/chunk";

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
  // Up to 500 workspaces: each list of them is cut to D1's bound-value limit, in one batch still.
  const statements = inLists(affected).flatMap((part) => [
    db
      .update(workspaces)
      .set({ version: sql`${workspaces.version} + 1` })
      .where(inArray(workspaces.id, part)),
    db
      .update(alerts)
      .set({ deleted: true, version: sql`(SELECT "version" FROM "workspaces" WHERE "id" = ${alerts.workspaceId})` })
      .where(and(expired, inArray(alerts.workspaceId, part))),
  ]);
  const [first, ...rest] = statements;
  if (!first) return [];
  await db.batch([first, ...rest]);
  return affected;
}
