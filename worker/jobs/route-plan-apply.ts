import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { RoutePlanApply } from "../../shared/jobs/route-plan";
import { inLists } from "../../db/chunk";
import type { Db, LiveWrites } from "../../db/client";
import { jobs } from "../../db/schema";
import { ApiError, badRequest, notFound } from "../lib/errors";
import {
  jobPlacementWrites,
  jobVehicle,
  type JobPlacement,
  type JobRow,
  type JobWrites,
  type JobWriter,
} from "./job-writes";

/**
 * `POST /api/routes/plan/apply` (issue 54, docs/decisions/0076): the plan's jobs given to their
 * vehicles in its order, in one versioned write. A job changed since the plan was made (its
 * version differs from the stop's, or it is no longer scheduled) is a 409 and nothing is written:
 * checked on read, and again inside the batch by a guard that aborts it, so a write landing in
 * between is caught too. Stops after the vehicle's started ones (done, arrived, en route).
 */

export const planOutdated = (jobId: string) =>
  new ApiError(409, "plan_outdated", `Job ${jobId} changed since the plan was made: plan again`);

async function namedJobs(db: Db, workspaceId: string, ids: readonly string[]) {
  const rows: JobRow[] = [];
  for (const part of inLists([...ids]))
    rows.push(
      ...(await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false), inArray(jobs.id, part)))
        .all()),
    );
  if (rows.length !== ids.length) throw notFound("No such job in this workspace");
  return new Map(rows.map((r) => [r.id, r]));
}

/** The sequence after each vehicle's last started (not scheduled, not set aside) job of that day. */
async function firstFreeSequence(db: Db, workspaceId: string, vehicleIds: string[], date: string) {
  const rows: { vehicleId: string | null; last: number }[] = [];
  // A plan names up to MAX_PLAN_VEHICLES vehicles, more than one IN list holds.
  for (const part of inLists(vehicleIds))
    rows.push(
      ...(await db
        .select({ vehicleId: jobs.vehicleId, last: sql<number>`max(${jobs.sequence})` })
        .from(jobs)
        .where(
          and(
            eq(jobs.workspaceId, workspaceId),
            eq(jobs.deleted, false),
            eq(jobs.date, date),
            inArray(jobs.status, ["en_route", "arrived", "completed"]),
            inArray(jobs.vehicleId, part),
          ),
        )
        .groupBy(jobs.vehicleId)
        .all()),
    );
  return new Map(rows.map((r) => [r.vehicleId, r.last + 1]));
}

/**
 * Fails the batch (a duplicate primary key) when a named job is no longer as the plan saw it: the
 * trick of the push's own guard (worker/sync/push.ts), one statement for every job through json_each.
 */
function unchangedGuard(live: LiveWrites, workspaceId: string, expected: [string, number][]): BatchItem<"sqlite"> {
  // Literals, not parameters: drizzle's D1 batch cannot bind a raw statement's (db/bulk.ts); one escape, a doubled quote.
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  return live.run(
    sql.raw(`INSERT INTO "jobs" SELECT "jobs".* FROM "jobs" JOIN json_each(${literal(JSON.stringify(expected))}) AS j
    ON "jobs"."id" = json_extract(j.value, '$[0]')
    WHERE "jobs"."workspace_id" = ${literal(workspaceId)}
      AND ("jobs"."version" != json_extract(j.value, '$[1]') OR "jobs"."deleted" = 1 OR "jobs"."status" != 'scheduled')`),
  );
}

export interface PlanApplication {
  writes: JobWrites;
  date: string;
  guards: (live: LiveWrites) => BatchItem<"sqlite">[];
  /** Whether a failed batch failed because a job changed (then 409). */
  changedSince: () => Promise<string | null>;
}

export async function applyRoutePlan(
  db: Db,
  workspaceId: string,
  plan: RoutePlanApply,
  writer: JobWriter,
): Promise<PlanApplication> {
  const stops = plan.routes.flatMap((r) => r.stops);
  if (!stops.length) throw badRequest("routes: no stops to apply", { routes: ["Give the plan's stops"] });
  const rows = await namedJobs(
    db,
    workspaceId,
    stops.map((s) => s.jobId),
  );
  for (const route of plan.routes) await jobVehicle(db, workspaceId, route.vehicleId);
  const dates = new Set([...rows.values()].map((r) => r.date));
  if (dates.size > 1) throw badRequest("routes: the jobs of one day only", { routes: ["Jobs of one day only"] });
  const expected = stops.map((s): [string, number] => [s.jobId, s.version ?? rows.get(s.jobId)!.version]);
  const stale = expected.find(
    ([id, version]) => rows.get(id)!.version !== version || rows.get(id)!.status !== "scheduled",
  );
  if (stale) throw planOutdated(stale[0]);
  const date = [...dates][0]!;
  const after = await firstFreeSequence(
    db,
    workspaceId,
    plan.routes.map((r) => r.vehicleId),
    date,
  );
  const placements: JobPlacement[] = plan.routes.flatMap((route) =>
    route.stops.map((stop, i) => ({
      row: rows.get(stop.jobId)!,
      vehicleId: route.vehicleId,
      sequence: (after.get(route.vehicleId) ?? 0) + i,
    })),
  );
  const writes = await jobPlacementWrites(db, workspaceId, placements, writer);
  const changedSince = async () => {
    const now = await namedJobs(
      db,
      workspaceId,
      stops.map((s) => s.jobId),
    ).catch(() => null);
    if (!now) return stops[0]!.jobId;
    const moved = expected.find(
      ([id, version]) => now.get(id)!.version !== version || now.get(id)!.status !== "scheduled",
    );
    return moved?.[0] ?? null;
  };
  return { writes, date, guards: (live) => [unchangedGuard(live, workspaceId, expected)], changedSince };
}
