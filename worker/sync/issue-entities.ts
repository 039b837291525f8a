import { and, eq, gt, gte, inArray, or } from "drizzle-orm";
import {
  encodeIssue,
  encodeIssueComment,
  issueCommentKey,
  issueKey,
  ISSUE_RECENT_MS,
} from "../../shared/maintenance/issues";
import type { Db } from "../../db/client";
import { issueComments, issues } from "../../db/schema";
import type { Add, Rows } from "./add-rows";

/**
 * Issues and their comments in a pull (docs/decisions/0030). A full answer (a new device, a reset)
 * holds only what a phone needs at hand: issues open or in progress, and others changed in the
 * last week, with their comments; older resolved and closed ones are read on demand
 * (GET /api/issues). An incremental answer carries every change since the cookie, so a device
 * that watched an issue close sees it close.
 */
function syncedIssues(workspaceId: string) {
  return and(
    eq(issues.workspaceId, workspaceId),
    eq(issues.deleted, false),
    or(inArray(issues.status, ["open", "in_progress"]), gte(issues.updatedAt, Date.now() - ISSUE_RECENT_MS)),
  );
}

export function issueChangeQueries(db: Db, workspaceId: string, since: number, live: boolean) {
  if (!live) {
    return [
      db
        .select()
        .from(issues)
        .where(and(eq(issues.workspaceId, workspaceId), gt(issues.version, since))),
      db
        .select()
        .from(issueComments)
        .where(and(eq(issueComments.workspaceId, workspaceId), gt(issueComments.version, since))),
    ] as const;
  }
  return [
    db
      .select()
      .from(issues)
      .where(and(syncedIssues(workspaceId), gt(issues.version, since))),
    db
      .select()
      .from(issueComments)
      .where(
        and(
          eq(issueComments.workspaceId, workspaceId),
          gt(issueComments.version, since),
          eq(issueComments.deleted, false),
          inArray(issueComments.issueId, db.select({ id: issues.id }).from(issues).where(syncedIssues(workspaceId))),
        ),
      ),
  ] as const;
}

export function addIssues(
  changes: { issueRows: Rows<typeof issues>; commentRows: Rows<typeof issueComments> },
  add: Add,
) {
  add(
    changes.issueRows,
    (r) => issueKey(r.id),
    (r) =>
      encodeIssue({ ...r, status: r.status, sourceInspectionId: r.sourceInspectionId, sourceAlertId: r.sourceAlertId }),
  );
  add(
    changes.commentRows,
    (r) => issueCommentKey(r.issueId, r.id),
    (r) => encodeIssueComment(r),
  );
}
