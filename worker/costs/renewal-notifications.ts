import { and, eq, inArray, sql } from "drizzle-orm";
import { renewalStatus, renewalTitle, type RenewalStatus } from "../../shared/costs/renewals";
import { addDays, dayOf } from "../../shared/units/time-zone";
import type { Db } from "../../db/client";
import { memberships, renewals, users, workspaces } from "../../db/schema";
import { sendMemberMail } from "../email/member-mail";
import type { Config } from "../env";
import { PER_WORKSPACE_PER_RUN, WORKSPACES_PER_RUN } from "../maintenance/due-notifications";

/**
 * Renewal reminders (issue 42, docs/decisions/0049), e-mailed like service due notices
 * (worker/maintenance/due-notifications.ts, run by the same quarter-hour cron): a renewal that
 * becomes due soon, or overdue, is e-mailed ONCE per due date to the workspace's owners and
 * admins. What went out is stored as `{dueDate}:{status}` and claimed with a conditional update
 * before anything is sent, so two overlapping runs never send it twice; renewing moves the due
 * date, so the new one is reminded of afresh. One that jumps straight to overdue is sent once.
 *
 * One tenant delays only itself, as for service (issue 39, finding 7b): the workspaces with
 * something to send, the one with the oldest due date first, each get a turn of at most
 * PER_WORKSPACE_PER_RUN renewals per run.
 *
 * SQL picks candidates by the latest day any time zone can be in (UTC's day plus one); the
 * workspace's own day then decides, with the one rule every screen uses (shared/costs/renewals.ts). A
 * renewal reminded of a day early in UTC+14 is picked and left for a few hours: a few rows.
 */
type Due = Exclude<RenewalStatus, "ok">;
const live = sql`v.id = ${renewals.vehicleId} AND v.workspace_id = ${renewals.workspaceId} AND v.deleted = 0`;

/** SQL: a live renewal whose reminder day or due day passed (on the latest day anywhere) and that was not sent for it. */
function unannounced(latestDay: string) {
  const soonKey = sql`${renewals.dueDate} || ':due_soon'`;
  const overdueKey = sql`${renewals.dueDate} || ':overdue'`;
  const announced = sql`coalesce(${renewals.announced}, '')`;
  const remindFrom = sql`date(${renewals.dueDate}, '-' || ${renewals.remindDaysBefore} || ' days')`;
  return and(
    eq(renewals.deleted, false),
    sql`((${announced} NOT IN (${soonKey}, ${overdueKey}) AND ${remindFrom} <= ${latestDay}) OR (${announced} <> ${overdueKey} AND ${renewals.dueDate} < ${latestDay}))`,
  );
}

async function workspacesWithDue(db: Db, latestDay: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: renewals.workspaceId })
    .from(renewals)
    .innerJoin(sql`vehicles v`, live)
    .where(unannounced(latestDay))
    .groupBy(renewals.workspaceId)
    .orderBy(sql`min(${renewals.dueDate})`)
    .limit(WORKSPACES_PER_RUN)
    .all();
  return rows.map((r) => r.workspaceId);
}

async function candidates(db: Db, workspaceId: string, latestDay: string) {
  return db
    .select({ renewal: renewals, vehicleName: sql<string>`v.name` })
    .from(renewals)
    .innerJoin(sql`vehicles v`, live)
    .where(and(eq(renewals.workspaceId, workspaceId), unannounced(latestDay)))
    .orderBy(renewals.dueDate)
    .limit(PER_WORKSPACE_PER_RUN)
    .all();
}
type Candidate = Awaited<ReturnType<typeof candidates>>[number];

/** The status to send for, on the workspace's day, or null (not yet due there, or already sent). */
function toSend({ renewal: r }: Candidate, today: string): Due | null {
  const status = renewalStatus(r, today);
  if (status === "ok" || r.announced === `${r.dueDate}:${status}` || r.announced === `${r.dueDate}:overdue`)
    return null;
  return status;
}

/** Claims each renewal's reminder (only if still as read); answers those this run claimed. */
async function claim(db: Db, list: { c: Candidate; status: Due }[]) {
  const claimed: typeof list = [];
  for (const item of list) {
    const r = item.c.renewal;
    const asRead = r.announced === null ? sql`${renewals.announced} IS NULL` : eq(renewals.announced, r.announced);
    const won = await db
      .update(renewals)
      .set({ announced: `${r.dueDate}:${item.status}` })
      .where(and(eq(renewals.id, r.id), eq(renewals.dueDate, r.dueDate), asRead))
      .returning({ id: renewals.id });
    if (won.length) claimed.push(item);
  }
  return claimed;
}

async function emailManagers(db: Db, config: Config, workspaceId: string, list: { c: Candidate; status: Due }[]) {
  const managers = await db
    .select({ userId: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.role, ["owner", "admin"])))
    .all();
  for (const { c, status } of list) {
    const r = c.renewal;
    const what = `${c.vehicleName}: ${renewalTitle(r)} ${status === "overdue" ? "is overdue" : "is due soon"} (due ${r.dueDate})`;
    const link = new URL(`/vehicles/${r.vehicleId}/costs`, config.APP_URL).href;
    for (const m of managers) {
      // Names are what members typed: the subject stays fixed (issue 39).
      const email = {
        to: m.email,
        subject: status === "overdue" ? "Renewal overdue on a vehicle" : "Renewal due soon on a vehicle",
        text: `${what}.\n\nRenew it: ${link}`,
        idempotencyKey: `renewal:${r.id}:${r.dueDate}:${status}:${m.userId}`,
        senderKey: `workspace:${workspaceId}`,
        senderUserId: null,
        kind: "renewal_due",
        digestLine: `${what} (${link})`,
      };
      // A failed send is logged, not retried: a due date is reminded of once.
      await sendMemberMail(db, config, email).catch((error: unknown) =>
        console.error("renewal e-mail failed:", error instanceof Error ? error.message : "unknown error"),
      );
    }
  }
}

/** Run by the cron every quarter hour beside the service due notices, each workspace in turn. */
export async function announceDueRenewals(db: Db, config: Config, now = Date.now()): Promise<void> {
  const latestDay = addDays(dayOf(now, "UTC"), 1);
  for (const workspaceId of await workspacesWithDue(db, latestDay)) {
    try {
      const ws = await db
        .select({ timeZone: workspaces.timeZone })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
        .get();
      const today = dayOf(now, ws?.timeZone ?? "UTC");
      const list = (await candidates(db, workspaceId, latestDay)).flatMap((c) => {
        const status = toSend(c, today);
        return status ? [{ c, status }] : [];
      });
      const claimed = await claim(db, list);
      if (claimed.length) await emailManagers(db, config, workspaceId, claimed);
    } catch (error) {
      // D1 failing for this workspace: its renewals stay unsent for the next run, the others go on.
      console.error(
        `renewal reminders: workspace ${workspaceId} failed this run:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
}
