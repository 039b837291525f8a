import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { DUE_SOON_SHARE, scheduleDue, type ServiceStatus } from "../../shared/maintenance/service";
import { METRES_PER_MILE } from "../../shared/units/units";
import type { Db, LiveWrites } from "../../db/client";
import { alerts, memberships, serviceSchedules, users } from "../../db/schema";
import type { DueCheck } from "../../party/due-notices/due-notice-task";
import { sendMemberMail } from "../email/member-mail";
import type { Config } from "../env";
import { commitWrite } from "../../db/writer";

/**
 * Due notifications (docs/decisions/0032): a service schedule that becomes due soon, or overdue,
 * raises ONE Inbox entry (an alert of type service_due_soon / service_overdue, synced like every
 * alert) and one e-mail to the workspace's owners and admins for that period, never again.
 *
 * "That period" is the schedule's `cycle` (a service entry that restarts it starts a new one);
 * what was announced is stored on the schedule as `{cycle}:{status}` and claimed with a
 * conditional update before anything is sent, so two overlapping runs never announce it twice.
 * A schedule that jumps straight to overdue is announced once, as overdue.
 *
 * Who runs it (docs/decisions/0066): every DUE_CHECK_EVERY_MINUTES the cron lists the workspaces
 * with something to announce (`workspacesWithDue`, read-only, the one waiting longest first) and
 * wakes their objects (worker/maintenance/due-notice-wake.ts); each object's alarm task
 * (party/due-notices/due-notice-task.ts) runs `checkDueSchedules` for its own workspace, so the
 * object writes its workspace's alerts and announces them, as it does its other writes. Queries
 * whose WHERE keeps only schedules that reached a figure not announced yet (SQL does the
 * arithmetic, so 20,000 schedules of which a few are due return a few rows).
 *
 * One tenant delays only itself (issue 39, finding 7b): each workspace's check takes at most
 * PER_WORKSPACE_PER_RUN schedules, and the rest of a busy workspace waits for its next check; a
 * workspace whose check fails is logged by its own object and delays no other.
 */
export const DUE_CHECK_EVERY_MINUTES = 15;
export const PER_WORKSPACE_PER_RUN = 50;
export const WORKSPACES_PER_RUN = 100;
/**
 * The share of an interval at which a schedule is due soon, from the one rule (shared/maintenance/service.ts).
 * The SQL below only narrows the rows to read; `scheduleDue` decides each candidate's status.
 */
const SOON = 1 - DUE_SOON_SHARE;

/** Whether the cron run at `time` checks the schedules (every quarter hour). */
export const isDueCheckMinute = (time: number) => new Date(time).getUTCMinutes() % DUE_CHECK_EVERY_MINUTES === 0;

/** SQL: the schedule has reached `share` of one of its intervals (1: overdue; SOON: due soon). */
function reached(share: number, now: number) {
  return sql`(
    (${serviceSchedules.everyDays} IS NOT NULL AND ${now} >= ${serviceSchedules.lastDoneAt} + ${serviceSchedules.everyDays} * 86400000.0 * ${share})
    OR (${serviceSchedules.everyMiles} IS NOT NULL AND t.odometer IS NOT NULL AND t.odometer / ${METRES_PER_MILE} >= ${serviceSchedules.lastDoneOdometerMiles} + ${serviceSchedules.everyMiles} * ${share})
    OR (${serviceSchedules.everyEngineHours} IS NOT NULL AND v.engine_seconds IS NOT NULL AND v.engine_seconds / 3600.0 >= ${serviceSchedules.lastDoneEngineHours} + ${serviceSchedules.everyEngineHours} * ${share})
  )`;
}

interface Candidate {
  schedule: typeof serviceSchedules.$inferSelect;
  vehicleName: string;
  odometer: number | null;
  engineSeconds: number | null;
  latitude: number | null;
  longitude: number | null;
}

/** SQL: a live schedule that reached a figure not announced yet (its vehicle joined as `v`, telemetry as `t`). */
function unannounced(now: number) {
  const soonKey = sql`${serviceSchedules.cycle} || ':due_soon'`;
  const overdueKey = sql`${serviceSchedules.cycle} || ':overdue'`;
  const announced = sql`coalesce(${serviceSchedules.announced}, '')`;
  return and(
    eq(serviceSchedules.deleted, false),
    sql`((${announced} NOT IN (${soonKey}, ${overdueKey}) AND ${reached(SOON, now)}) OR (${announced} <> ${overdueKey} AND ${reached(1, now)}))`,
  );
}

const vehicleJoin = sql`v.id = ${serviceSchedules.vehicleId} AND v.workspace_id = ${serviceSchedules.workspaceId} AND v.deleted = 0`;

/** The workspaces with something to announce, the one waiting longest first (read-only: the cron's wake). */
export async function workspacesWithDue(db: Db, now: number): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: serviceSchedules.workspaceId })
    .from(serviceSchedules)
    .innerJoin(sql`vehicles v`, vehicleJoin)
    .leftJoin(sql`telemetry t`, sql`t.vehicle_id = ${serviceSchedules.vehicleId}`)
    .where(unannounced(now))
    .groupBy(serviceSchedules.workspaceId)
    .orderBy(sql`min(${serviceSchedules.lastDoneAt})`)
    .limit(WORKSPACES_PER_RUN)
    .all();
  return rows.map((r) => r.workspaceId);
}

async function candidates(db: Db, workspaceId: string, now: number): Promise<Candidate[]> {
  return db
    .select({
      schedule: serviceSchedules,
      vehicleName: sql<string>`v.name`,
      odometer: sql<number | null>`t.odometer`,
      engineSeconds: sql<number | null>`v.engine_seconds`,
      latitude: sql<number | null>`t.latitude`,
      longitude: sql<number | null>`t.longitude`,
    })
    .from(serviceSchedules)
    .innerJoin(sql`vehicles v`, vehicleJoin)
    .leftJoin(sql`telemetry t`, sql`t.vehicle_id = ${serviceSchedules.vehicleId}`)
    .where(and(eq(serviceSchedules.workspaceId, workspaceId), unannounced(now)))
    .orderBy(serviceSchedules.lastDoneAt)
    .limit(PER_WORKSPACE_PER_RUN)
    .all();
}

interface Announcement {
  candidate: Candidate;
  status: Exclude<ServiceStatus, "ok">;
  alertId: string;
  nextDue: string;
}

function announcementOf(c: Candidate, now: number): Announcement | null {
  const s = c.schedule;
  const reading = {
    odometerMiles: c.odometer === null ? null : c.odometer / METRES_PER_MILE,
    engineHours: c.engineSeconds === null ? null : c.engineSeconds / 3600,
  };
  const due = scheduleDue(s, reading, now);
  if (due.status === "ok" || s.announced === `${s.cycle}:${due.status}` || s.announced === `${s.cycle}:overdue`)
    return null;
  const figures = [
    due.nextDueMiles !== null ? `${Math.round(due.nextDueMiles).toLocaleString("en-US")} mi` : null,
    due.nextDueEngineHours !== null ? `${Math.round(due.nextDueEngineHours)} engine hours` : null,
    due.nextDueAt !== null ? new Date(due.nextDueAt).toISOString().slice(0, 10) : null,
  ].filter(Boolean);
  return {
    candidate: c,
    status: due.status,
    alertId: `service:${s.id}:${s.cycle}:${due.status}`,
    nextDue: figures.join(" or "),
  };
}

/** One transaction per workspace: each schedule claimed (only if still as read) with its Inbox entry. */
async function commit(db: Db, workspaceId: string, list: Announcement[], now: number): Promise<Announcement[]> {
  const writes = (stamp: SQL<number>, live: LiveWrites) => claimsWithAlerts(db, live, workspaceId, list, now, stamp);
  // Announced by the object's task once this check answers `announced` (party/due-notices/due-notice-task.ts,
  // its own pacer), after the e-mails: nothing to tell before.
  const results = await commitWrite(db, workspaceId, writes, { announce: async () => {} });
  // The claims' answers, after the version's bump: a schedule another run claimed first (or restarted meanwhile) is not ours to e-mail.
  return list.filter((_, i) => (results[1 + i * 2] as unknown[]).length > 0);
}

/** Each schedule's claim (only if still as read) followed by its Inbox entry, stamped with the write's version. */
function claimsWithAlerts(
  db: Db,
  live: LiveWrites,
  workspaceId: string,
  list: Announcement[],
  now: number,
  stamp: SQL<number>,
) {
  const writes: BatchItem<"sqlite">[] = [];
  for (const a of list) {
    const s = a.candidate.schedule;
    const claimed =
      s.announced === null ? sql`${serviceSchedules.announced} IS NULL` : eq(serviceSchedules.announced, s.announced);
    writes.push(
      db
        .update(serviceSchedules)
        // Stamped: the synced schedule carries what was announced (engine hours are counted here only; docs/decisions/0033).
        .set({ announced: `${s.cycle}:${a.status}`, version: stamp })
        .where(and(eq(serviceSchedules.id, s.id), eq(serviceSchedules.cycle, s.cycle), claimed))
        .returning({ id: serviceSchedules.id }),
      live
        .insert(alerts)
        .values({
          id: a.alertId,
          workspaceId,
          version: stamp,
          ruleId: s.id,
          vehicleId: s.vehicleId,
          type: a.status === "overdue" ? "service_overdue" : "service_due_soon",
          at: now,
          latitude: a.candidate.latitude ?? 0,
          longitude: a.candidate.longitude ?? 0,
        })
        .onConflictDoNothing(),
    );
  }
  return writes;
}

async function emailManagers(db: Db, config: Config, workspaceId: string, list: Announcement[]) {
  const managers = await db
    .select({ userId: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.role, ["owner", "admin"])))
    .all();
  for (const a of list) {
    const { schedule, vehicleName } = a.candidate;
    const what = a.status === "overdue" ? "is overdue" : "is due soon";
    const link = new URL(`/vehicles/${schedule.vehicleId}/service`, config.APP_URL).href;
    for (const m of managers) {
      // Vehicle and schedule names are what members typed: the subject stays fixed (issue 39).
      const email = {
        to: m.email,
        subject: a.status === "overdue" ? "Service overdue on a vehicle" : "Service due soon on a vehicle",
        text: `${vehicleName}: ${schedule.name} ${what} (due at ${a.nextDue}).\n\nLog the service: ${link}`,
        idempotencyKey: `${a.alertId}:${m.userId}`,
        senderKey: `workspace:${workspaceId}`,
        senderUserId: null,
        kind: "service_due",
        digestLine: `${vehicleName}: ${schedule.name} ${what} (${link})`,
      };
      // A failed send is logged, not retried: the Inbox entry stands, and a period is announced once.
      await sendMemberMail(db, config, email).catch((error: unknown) =>
        console.error("service due e-mail failed:", error instanceof Error ? error.message : "unknown error"),
      );
    }
  }
}

/**
 * One check of a workspace's schedules, run by its object's alarm task (party/due-notices/): what
 * reached a figure not announced yet is claimed with its Inbox entry in one versioned batch, and
 * the claimed ones are e-mailed to owners and admins. Throws when D1 fails: the job tries again.
 */
export async function checkDueSchedules(
  db: Db,
  config: Config,
  workspaceId: string,
  now = Date.now(),
): Promise<DueCheck> {
  const found = await candidates(db, workspaceId, now);
  const more = found.length === PER_WORKSPACE_PER_RUN;
  const list = found.flatMap((c) => announcementOf(c, now) ?? []);
  if (!list.length) return { announced: false, more };
  const claimed = await commit(db, workspaceId, list, now);
  if (claimed.length) await emailManagers(db, config, workspaceId, claimed);
  return { announced: true, more };
}
