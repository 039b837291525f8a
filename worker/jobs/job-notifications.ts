import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { IN_LIST_MAX } from "../../db/chunk";
import type { Db } from "../../db/client";
import { drivers, jobNotifications, jobs, memberships, users, vehicles } from "../../db/schema";
import type { Config } from "../env";
import { pushToMember } from "../push/send-push";
import { dateText, windowText } from "../../shared/units/clock";
import { workspaceClock } from "../lib/workspace-time-zone";

/** The driver's day on a phone (the page a tap on the notice opens). */
export const DRIVER_DAY_PATH = "/my-day";

type Pending = typeof jobNotifications.$inferSelect;

/**
 * Pushes the jobs given to a vehicle to its driver's phones (issue 43, docs/decisions/0047 and
 * 0052). The driver is a person of the fleet (`drivers`), not an account: the member whose
 * account e-mail is the driver's is the one notified. Queued by the assigning write's own batch,
 * each row claimed by deleting it, so two senders never send one twice; best effort like every
 * push (never retried). Several jobs for one vehicle at once (an import) are one notice.
 */
export async function sendJobNotifications(
  db: Db,
  config: Config,
  opts: { workspaceId?: string; limit?: number } = {},
): Promise<number> {
  const claimed = await db
    .delete(jobNotifications)
    .where(
      sql`${jobNotifications.id} IN (SELECT id FROM job_notifications ${
        opts.workspaceId ? sql`WHERE workspace_id = ${opts.workspaceId}` : sql``
      } ORDER BY created_at LIMIT ${opts.limit ?? 500})`,
    )
    .returning();
  const byVehicle = new Map<string, Pending[]>();
  for (const row of claimed) {
    const key = `${row.workspaceId}|${row.vehicleId}`;
    const list = byVehicle.get(key) ?? [];
    list.push(row);
    byVehicle.set(key, list);
  }
  let sent = 0;
  for (const rows of byVehicle.values()) {
    sent += await notifyDriver(db, config, rows).catch((error) => {
      console.error("job assignment push failed:", error);
      return 0;
    });
  }
  return sent;
}

/** The member who drives the vehicle: a live driver's e-mail that is a member's account in the workspace. */
async function driverMember(db: Db, workspaceId: string, vehicleId: string) {
  return db
    .select({ userId: users.id })
    .from(vehicles)
    .innerJoin(drivers, and(eq(drivers.id, vehicles.driverId), eq(drivers.deleted, false)))
    .innerJoin(users, sql`lower(${users.email}) = lower(${drivers.email})`)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, workspaceId)))
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId)))
    .get();
}

async function notifyDriver(db: Db, config: Config, rows: Pending[]): Promise<number> {
  const { workspaceId, vehicleId } = rows[0]!;
  const member = await driverMember(db, workspaceId, vehicleId);
  if (!member) return 0;
  // Still that vehicle's, still to do, and not the driver's own planning.
  const theirs = rows.filter((r) => r.senderUserId !== member.userId);
  const ids = theirs.slice(0, IN_LIST_MAX).map((r) => r.jobId);
  if (ids.length === 0) return 0;
  const live = await db
    .select({ id: jobs.id, title: jobs.title, date: jobs.date, windowStart: jobs.windowStart })
    .from(jobs)
    // in-list: at most IN_LIST_MAX ids (sliced above); the rest of a large import only counts
    .where(and(inArray(jobs.id, ids), eq(jobs.vehicleId, vehicleId), eq(jobs.deleted, false)))
    .orderBy(asc(jobs.date), asc(jobs.sequence))
    .all();
  if (live.length === 0) return 0;
  const count = theirs.length > ids.length ? theirs.length : live.length;
  const first = live[0]!;
  // The window on the workspace's clock, its zone named: a phone may be anywhere (docs/decisions/0079).
  const clock = await workspaceClock(db, workspaceId);
  const window = windowText(first.windowStart, null, clock, first.date);
  const notice =
    count === 1
      ? {
          title: `New job: ${first.title}`,
          body: `${dateText(first.date, clock)}${window ? ` ${window}` : ""}`,
          url: `${DRIVER_DAY_PATH}?date=${first.date}`,
          tag: `job-${first.id}`,
        }
      : {
          title: `${count} new jobs`,
          body: live
            .slice(0, 3)
            .map((j) => j.title)
            .join(", "),
          url: `${DRIVER_DAY_PATH}?date=${first.date}`,
          tag: `jobs-${vehicleId}-${first.date}`,
        };
  // The claimed row's id names this notice: a second batch for the same day is a new one.
  return pushToMember(db, config, { workspaceId, userId: member.userId }, notice, `job-notification-${rows[0]!.id}`);
}
