import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { RecordedDriving, RecordedHour } from "../domain/routing/street-travel";
import { addDays } from "../shared/units/time-zone";
import type { Db } from "./client";
import { vehicleDayRollups, workspaceHourDriving } from "./schema";

/**
 * What street travel learns from (issue 54, docs/decisions/0076, 0097): a workspace's recorded
 * driving of its last LEARNED_DAYS local days before `today`, read by the planner
 * (worker/jobs/route-plan.ts) and by the workspace object for the live ETA (party/jobs/day-plans.ts).
 */

/** The recorded days the fleet's speed and its shape by hour are learned from. */
export const LEARNED_DAYS = 28;
/** Hour rows older than this many days are deleted by retention (worker/retention.ts): the window and a week. */
export const HOUR_DRIVING_KEPT_DAYS = LEARNED_DAYS + 7;

/**
 * The fleet's road metres and driving seconds over its last recorded days (null: none), and its
 * driving by local hour of the day over the same days (at most 24 rows a day, summed by hour).
 */
export async function recordedDriving(db: Db, workspaceId: string, today: string): Promise<RecordedDriving | null> {
  const level = await recordedLevel(db, workspaceId, today);
  return level && { ...level, hours: await recordedHours(db, workspaceId, today) };
}

/** The driving of the last LEARNED_DAYS by local hour: what the planner's hour shape is learned from. */
export async function recordedHours(db: Db, workspaceId: string, today: string): Promise<RecordedHour[]> {
  const h = workspaceHourDriving;
  return db
    .select({
      hour: h.hour,
      meters: sql<number>`sum(${h.drivingMetres})`.mapWith(Number),
      drivingSeconds: sql<number>`sum(${h.drivingSeconds})`.mapWith(Number),
    })
    .from(h)
    .where(and(eq(h.workspaceId, workspaceId), gte(h.day, addDays(today, -LEARNED_DAYS)), lt(h.day, today)))
    .groupBy(h.hour)
    .all();
}

async function recordedLevel(db: Db, workspaceId: string, today: string): Promise<RecordedDriving | null> {
  const row = await db
    .select({
      meters: sql<number>`sum(${vehicleDayRollups.distanceMetres})`,
      seconds: sql<number>`sum(${vehicleDayRollups.drivingSeconds})`,
    })
    .from(vehicleDayRollups)
    .where(
      and(
        eq(vehicleDayRollups.workspaceId, workspaceId),
        gte(vehicleDayRollups.day, addDays(today, -LEARNED_DAYS)),
        lt(vehicleDayRollups.day, today),
      ),
    )
    .get();
  return row?.seconds ? { meters: row.meters ?? 0, drivingSeconds: row.seconds } : null;
}
