import { and, eq, gt, gte, lte } from "drizzle-orm";
import { encodeJob, jobKey, syncedJobDates } from "../../shared/jobs/jobs";
import type { Db } from "../../db/client";
import { jobs } from "../../db/schema";

import type { Add, Rows } from "./add-rows";

/**
 * Jobs in a pull (issue 43, docs/decisions/0052), bounded as fill-ups are (ADR 0045) but by date: a
 * full answer carries the live jobs dated from yesterday to a week ahead (what the dispatch page
 * and the driver's day show, and a driver finishing yesterday's round late); an incremental one
 * every change since the cookie, tombstones included. Older and later days are read over REST.
 */
export function jobChangeQuery(db: Db, workspaceId: string, since: number, live: boolean, now = Date.now()) {
  const scope = and(eq(jobs.workspaceId, workspaceId), gt(jobs.version, since));
  if (!live) return db.select().from(jobs).where(scope);
  const { first, last } = syncedJobDates(now);
  return db
    .select()
    .from(jobs)
    .where(and(scope, eq(jobs.deleted, false), gte(jobs.date, first), lte(jobs.date, last)));
}

export function addJobs(changes: { jobRows: Rows<typeof jobs> }, add: Add) {
  add(
    changes.jobRows,
    (r) => jobKey(r.id),
    (r) => encodeJob(r),
  );
}
