import { sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { JOB_SHARE_AFTER_COMPLETION_MS } from "../shared/jobs/job-shares";
import type { Db } from "../db/client";
import { forgetKnownOwners } from "./sync/client-group";
import {
  alertDeliveries,
  emailConfirmations,
  emailOutbox,
  jobMessages,
  jobShares,
  oauthStates,
  passwordResetTokens,
  pushSends,
  rateLimits,
  realtimeTickets,
  replicacheClientGroups,
  replicacheClients,
  sessions,
  workspaceHourDriving,
} from "../db/schema";
import { HOUR_DRIVING_KEPT_DAYS } from "../db/recorded-driving";

/**
 * Retention of the D1 tables that only grow (issue 35, docs/decisions/0027 part 6): run by the cron
 * once an hour (RETENTION_MINUTE), each table's oldest finished rows deleted, at most `limit` per
 * table per run (one D1 batch in all), so a run stays cheap however much has piled up and a
 * backlog drains over the following hours. Each rule names what is no longer needed by anyone:
 */
export const RETENTION_MINUTE = 17;
export const RETENTION_LIMIT = 1_000;
const DAY = 86_400_000;
/** A client group idle this long is deleted with its clients (docs/decisions/0035). */
export const CLIENT_GROUP_IDLE_DAYS = 60;

/** table -> the condition on a row that retention deletes (ms since epoch `now`). */
export const RETENTION_RULES: Record<string, (now: number) => SQL> = {
  // Sessions whose absolute end or revocation is 30 days past (the sessions list shows recent ones).
  sessions: (now) =>
    sql`(expires_at < ${now - 30 * DAY} OR (revoked_at IS NOT NULL AND revoked_at < ${now - 30 * DAY}))`,
  // Socket tickets live 60 s, OAuth states minutes, reset tokens an hour: a day later they are nothing.
  realtime_tickets: (now) => sql`expires_at < ${now - DAY}`,
  oauth_states: (now) => sql`expires_at < ${now - DAY}`,
  password_reset_tokens: (now) => sql`expires_at < ${now - DAY}`,
  // E-mail confirmation links live 7 days; an account that never confirms keeps asking for new ones.
  email_confirmations: (now) => sql`expires_at < ${now - DAY}`,
  // A job's customer link ends at the latest JOB_SHARE_MAX_DAYS after it was made, and before that
  // JOB_SHARE_AFTER_COMPLETION_MS after its job is completed, or when it is cancelled or deleted:
  // a day past its end it answers 404 instead of 410, and the page says the link has ended either
  // way. The job is read by its key for each link (links are few; jobs are many).
  job_shares: (now) =>
    sql`(expires_at < ${now - DAY} OR ended_at < ${now - DAY} OR EXISTS (SELECT 1 FROM jobs j WHERE j.id = job_shares.job_id AND (
      j.completed_at < ${now - DAY - JOB_SHARE_AFTER_COMPLETION_MS}
      OR ((j.status = 'cancelled' OR j.deleted = 1) AND j.updated_at < ${now - DAY}))))`,
  // A push's claim only has to outlive the retries of what sent it (hours, not days).
  push_sends: (now) => sql`sent_at < ${now - 2 * DAY}`,
  // Abuse-limit windows are at most a day long: a window that started two days ago is over.
  rate_limits: (now) => sql`window_start < ${now - 2 * DAY}`,
  // Deliveries in a final state, a month after it (the dead ones are the operator's record until then).
  alert_deliveries: (now) => sql`status IN ('sent', 'skipped', 'dead') AND updated_at < ${now - 30 * DAY}`,
  // What a job's customer was told: the job's story, kept as long as an alert is (90 days).
  job_messages: (now) => sql`updated_at < ${now - 90 * DAY}`,
  // The development e-mail adapter's messages.
  email_outbox: (now) => sql`created_at < ${now - 7 * DAY}`,
  // Replicache client groups not synced for 60 days (a tab or browser profile gone for good): their
  // clients first, then each group once it has none left (same batch), so no client outlives its
  // group. A tab that comes back is told ClientStateNotFound and starts anew (docs/decisions/0035).
  replicache_clients: (now) =>
    sql`client_group_id IN (SELECT id FROM replicache_client_groups WHERE last_pulled_at < ${now - CLIENT_GROUP_IDLE_DAYS * DAY})`,
  replicache_client_groups: (now) =>
    sql`last_pulled_at < ${now - CLIENT_GROUP_IDLE_DAYS * DAY} AND NOT EXISTS (SELECT 1 FROM replicache_clients c WHERE c.client_group_id = replicache_client_groups.id)`,
  // The workspace's driving by hour (docs/decisions/0097): street travel learns from the last
  // LEARNED_DAYS; a week past that (local days; a day's zone is a day at most) nobody reads a row.
  workspace_hour_driving: (now) =>
    sql`day < ${new Date(now - HOUR_DRIVING_KEPT_DAYS * DAY).toISOString().slice(0, 10)}`,
};

/**
 * Tables whose rows expire by the day for every workspace at once delete this many times
 * `limit` a run: 24 hour rows a day per workspace (docs/decisions/0097) are 240,000 a day at
 * 10,000 workspaces, past 24 runs of 1,000 (20 × 1,000 an hour keeps up with 20,000). The rule
 * reads the day index.
 */
const LIMIT_TIMES: Partial<Record<string, number>> = { workspace_hour_driving: 20 };

const TABLES: Record<string, SQLiteTable> = {
  sessions,
  realtime_tickets: realtimeTickets,
  oauth_states: oauthStates,
  password_reset_tokens: passwordResetTokens,
  email_confirmations: emailConfirmations,
  job_shares: jobShares,
  push_sends: pushSends,
  rate_limits: rateLimits,
  alert_deliveries: alertDeliveries,
  email_outbox: emailOutbox,
  job_messages: jobMessages,
  replicache_clients: replicacheClients,
  replicache_client_groups: replicacheClientGroups,
  workspace_hour_driving: workspaceHourDriving,
};

/** One run: deletes up to `limit` rows of each table; answers how many per table. */
export async function runRetention(db: Db, now = Date.now(), limit = RETENTION_LIMIT): Promise<Record<string, number>> {
  const tables = Object.keys(RETENTION_RULES);
  const statements = tables.map((table) => {
    const target = TABLES[table]!;
    return db
      .delete(target)
      .where(
        sql`rowid IN (SELECT rowid FROM ${target} WHERE ${RETENTION_RULES[table]!(now)} LIMIT ${limit * (LIMIT_TIMES[table] ?? 1)})`,
      );
  });
  const results = await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  const deleted: Record<string, number> = Object.fromEntries(
    tables.map((table, i) => [table, (results[i] as { meta?: { changes?: number } }).meta?.changes ?? 0]),
  );
  if (deleted.replicache_client_groups) forgetKnownOwners(); // this isolate's pulls claim them again (ADR 0035)
  return deleted;
}

/** Whether this cron minute runs retention (once an hour). */
export const retentionDue = (scheduledTime: number) => new Date(scheduledTime).getUTCMinutes() === RETENTION_MINUTE;
