import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { workspaces } from "../../db/schema";
import { defaultHourCycle, hourCycleValues, type HourCycle, type WorkspaceClock } from "../../shared/units/clock";
import { notFound } from "./errors";

/** The workspace's time zone (migrations/0008): its days, "today", and the times its people read. */
export async function workspaceTimeZone(db: Db, workspaceId: string): Promise<string> {
  return (await workspaceClock(db, workspaceId)).timeZone;
}

/** The hour cycle a workspace chose (migrations/0041), or else its zone's country's. */
export function hourCycleOf(row: { timeZone: string; hourCycle: string | null }): HourCycle {
  const chosen = (hourCycleValues as readonly string[]).includes(row.hourCycle ?? "");
  return chosen ? (row.hourCycle as HourCycle) : defaultHourCycle(row.timeZone);
}

/**
 * The workspace's clock (shared/units/clock.ts): its zone and hour cycle, for the times the Worker
 * writes for people (e-mails, pushes). Their reader's zone is unknown, so those times name the zone.
 */
export async function workspaceClock(db: Db, workspaceId: string): Promise<WorkspaceClock> {
  const row = await db
    .select({ timeZone: workspaces.timeZone, hourCycle: workspaces.hourCycle })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .get();
  if (!row) throw notFound("No such workspace");
  return { timeZone: row.timeZone, hourCycle: hourCycleOf(row) };
}
