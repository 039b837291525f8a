import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inLists, insertChunks } from "../../db/chunk";
import { jobChanges, jobMessages, jobs, jobShares, workspaces } from "../../db/schema";
import { messagesForJobChange } from "../../shared/jobs/customer-message-rule";
import { customerMessageText } from "../../domain/jobs/customer-message-text";
import {
  customerMessageSettingsOf,
  type CustomerMessageKind,
  type JobMessage,
  type JobMessageState,
} from "../../shared/jobs/customer-messages";
import { JOB_SHARE_MAX_DAYS } from "../../shared/jobs/job-shares";
import { sendCustomerMail } from "../email/customer-mail";
import { sendCustomerSms, smsStatusUrl } from "../email/sms";
import { twilioAccountOf } from "../email/sms-account";
import type { Config } from "../env";
import { base64url, sha256Hex } from "../lib/crypto";
import { hourCycleOf } from "../lib/workspace-time-zone";

/**
 * Messages to a job's customer (issue 53, docs/decisions/0085). Rows of `job_messages` are queued
 * where the job changes, by the triggers of migrations/0043 (a status change or a move to another
 * day, whoever wrote it: the object's flush, a REST write, a pushed mutation), and by the minute's
 * arriving check below; this module sends them off the path that changed the job: right after a
 * REST write or a push (in `waitUntil`), and every minute from the cron for what the object's
 * flush queued. A sender claims rows by one UPDATE (status `sending`), so two senders never send
 * one twice; a row claimed by a sender that died is claimed again after CLAIM_STALE_MS.
 */
const CLAIM_STALE_MS = 5 * 60_000;
/** A send that failed on the provider's side is tried this many times in all, a drain apart. */
export const MESSAGE_MAX_ATTEMPTS = 3;
const DRAIN_LIMIT = 100;

type Claimed = typeof jobMessages.$inferSelect;

/**
 * Queues "arriving" for every job on its way whose ETA is within its workspace's minutes, once per
 * job (the unique index). One read over the partial index of en-route jobs with a customer.
 */
export async function queueArrivingMessages(db: Db, now = Date.now()): Promise<number> {
  const minutes = sql`json_extract(${workspaces.customerMessages}, '$.arrivingMinutes')`;
  const due = await db
    .select({
      jobId: jobs.id,
      workspaceId: jobs.workspaceId,
      email: jobs.customerEmail,
      phone: jobs.customerPhone,
    })
    .from(jobs)
    .innerJoin(workspaces, eq(workspaces.id, jobs.workspaceId))
    .where(
      and(
        // written as the index's own condition, so the planner reads the partial index
        sql`${jobs.status} = 'en_route' AND ${jobs.deleted} = 0 AND (${jobs.customerEmail} IS NOT NULL OR ${jobs.customerPhone} IS NOT NULL)`,
        sql`${minutes} IS NOT NULL AND ${jobs.eta} <= ${now} + ${minutes} * 60000`,
        sql`NOT EXISTS (SELECT 1 FROM job_messages m WHERE m.job_id = ${jobs.id} AND m.kind = 'arriving')`,
      ),
    )
    .limit(500)
    .all();
  const rows = due.flatMap((job) =>
    (
      [
        ["email", job.email],
        ["sms", job.phone],
      ] as const
    )
      .filter(([, address]) => address !== null)
      .map(([channel]) => ({
        id: crypto.randomUUID(),
        workspaceId: job.workspaceId,
        jobId: job.jobId,
        kind: "arriving" as const,
        channel,
      })),
  );
  await insertMessages(db, rows);
  return rows.length;
}

/** Changes turned into messages per round: one read, then a few inserts and one delete. */
const CHANGES_PER_ROUND = 200;

/**
 * Turns the job changes the triggers recorded (migrations/0055) into queued messages by the one
 * rule (`messagesForJobChange`), each kind once per job and channel (the unique index), and deletes
 * them. Read with the job's addresses and the workspace's choices as they are now, and whether the
 * customer was told of the visit, in one statement. Run again, it queues nothing twice. Answers how
 * many changes it took (CHANGES_PER_ROUND: there may be more).
 */
export async function queueChangeMessages(db: Db, workspaceId?: string): Promise<number> {
  const told = sql<number>`EXISTS (SELECT 1 FROM job_messages m WHERE m.job_id = ${jobChanges.jobId} AND m.status = 'sent')`;
  const changes = await db
    .select({
      id: jobChanges.id,
      workspaceId: jobChanges.workspaceId,
      jobId: jobChanges.jobId,
      change: jobChanges.change,
      status: jobChanges.status,
      email: jobs.customerEmail,
      phone: jobs.customerPhone,
      deleted: jobs.deleted,
      settings: workspaces.customerMessages,
      told,
    })
    .from(jobChanges)
    .innerJoin(jobs, eq(jobs.id, jobChanges.jobId))
    .innerJoin(workspaces, eq(workspaces.id, jobChanges.workspaceId))
    .where(workspaceId ? eq(jobChanges.workspaceId, workspaceId) : undefined)
    .orderBy(asc(jobChanges.createdAt))
    .limit(CHANGES_PER_ROUND)
    .all();
  if (!changes.length) return 0;
  const rows = changes.flatMap((c) =>
    c.deleted
      ? []
      : messagesForJobChange(c, { ...c, settings: customerMessageSettingsOf(c.settings), told: Boolean(c.told) }).map(
          (m) => ({ id: crypto.randomUUID(), workspaceId: c.workspaceId, jobId: c.jobId, ...m }),
        ),
  );
  await insertMessages(db, rows);
  for (const ids of inLists(changes.map((c) => c.id))) await db.delete(jobChanges).where(inArray(jobChanges.id, ids));
  return changes.length;
}

type NewMessage = typeof jobMessages.$inferInsert;

/** Queued once per job, kind and channel (the unique index keeps the first). */
async function insertMessages(db: Db, rows: NewMessage[]) {
  for (const part of insertChunks(jobMessages, rows)) await db.insert(jobMessages).values(part).onConflictDoNothing();
}

/** Sends the queued messages (of one workspace, or all); answers how many were claimed. */
export async function sendJobMessages(
  db: Db,
  config: Config,
  opts: { workspaceId?: string; limit?: number; now?: number } = {},
): Promise<number> {
  const now = opts.now ?? Date.now();
  let changes: number;
  do changes = await queueChangeMessages(db, opts.workspaceId);
  while (changes === CHANGES_PER_ROUND);
  // After a route's write (most queue nothing) a read answers: cheaper than the claim's write.
  if (opts.workspaceId && !(await anyWaiting(db, opts.workspaceId, now))) return 0;
  const claimed = await db
    .update(jobMessages)
    .set({ status: "sending", attempts: sql`${jobMessages.attempts} + 1`, updatedAt: now })
    .where(
      sql`${jobMessages.id} IN (SELECT id FROM job_messages WHERE (status = 'queued' OR (status = 'sending' AND updated_at < ${
        now - CLAIM_STALE_MS
      }))${opts.workspaceId ? sql` AND workspace_id = ${opts.workspaceId}` : sql``} ORDER BY created_at LIMIT ${
        opts.limit ?? DRAIN_LIMIT
      })`,
    )
    .returning();
  for (const row of claimed) {
    await deliver(db, config, row, now).catch(async (error: unknown) => {
      console.error(`customer message ${row.kind}/${row.channel} failed:`, error);
      // Tried again by the next drain, until the attempts are spent: then kept back.
      await settle(db, row.id, { status: row.attempts >= MESSAGE_MAX_ATTEMPTS ? "held" : "queued" });
    });
  }
  return claimed.length;
}

/** Whether the workspace has a message to send: queued, or claimed by a sender that died. */
async function anyWaiting(db: Db, workspaceId: string, now: number): Promise<boolean> {
  const row = await db
    .select({ id: jobMessages.id })
    .from(jobMessages)
    .where(
      sql`${jobMessages.workspaceId} = ${workspaceId} AND (${jobMessages.status} = 'queued' OR (${jobMessages.status} = 'sending' AND ${jobMessages.updatedAt} < ${now - CLAIM_STALE_MS}))`,
    )
    .limit(1)
    .get();
  return row !== undefined;
}

async function settle(db: Db, id: string, set: { status: JobMessageState; providerId?: string; sentAt?: number }) {
  await db
    .update(jobMessages)
    .set({ ...set, updatedAt: Date.now() })
    .where(eq(jobMessages.id, id));
}

/** What a message is about, read when it goes (the job may have moved on since it was queued). */
async function messageJob(db: Db, row: Claimed) {
  return db
    .select({
      id: jobs.id,
      title: jobs.title,
      status: jobs.status,
      deleted: jobs.deleted,
      date: jobs.date,
      windowStart: jobs.windowStart,
      windowEnd: jobs.windowEnd,
      eta: jobs.eta,
      completedAt: jobs.completedAt,
      proofPhotoIds: jobs.proofPhotoIds,
      email: jobs.customerEmail,
      phone: jobs.customerPhone,
      createdBy: jobs.createdByUserId,
      workspace: {
        name: workspaces.name,
        timeZone: workspaces.timeZone,
        hourCycle: workspaces.hourCycle,
        settings: workspaces.customerMessages,
      },
    })
    .from(jobs)
    .innerJoin(workspaces, eq(workspaces.id, jobs.workspaceId))
    .where(and(eq(jobs.id, row.jobId), eq(jobs.workspaceId, row.workspaceId)))
    .get();
}
type MessageJob = NonNullable<Awaited<ReturnType<typeof messageJob>>>;

/** Whether the message still says something true: "on its way" to a vehicle already there is not sent. */
function stillTrue(kind: CustomerMessageKind, job: MessageJob): boolean {
  if (job.deleted) return false;
  if (kind === "en_route" || kind === "arriving") return job.status === "en_route";
  if (kind === "completed") return job.status === "completed";
  return job.status !== "completed";
}

async function deliver(db: Db, config: Config, row: Claimed, now: number) {
  const job = await messageJob(db, row);
  const to = row.channel === "email" ? job?.email : job?.phone;
  // A text goes through the workspace's own Twilio account and no other (docs/decisions/0093).
  const account = row.channel === "sms" ? await twilioAccountOf(db, config.WEBHOOK_SECRET_KEY, row.workspaceId) : null;
  // Nothing true to say, or nobody to say it to (the address was removed, the workspace has no
  // Twilio account): dropped unrecorded, as nothing was sent.
  if (!job || !to || !stillTrue(row.kind, job) || (row.channel === "sms" && !account)) {
    await db.delete(jobMessages).where(eq(jobMessages.id, row.id));
    return;
  }
  const settings = customerMessageSettingsOf(job.workspace.settings);
  const text = customerMessageText({
    kind: row.kind,
    title: job.title,
    status: job.status,
    date: job.date,
    windowStart: job.windowStart,
    windowEnd: job.windowEnd,
    eta: job.eta,
    completedAt: job.completedAt,
    link: await customerLink(db, config, row.workspaceId, job.id, now),
    proofPhoto: settings.showProofPhoto && job.proofPhotoIds.length > 0,
    clock: { timeZone: job.workspace.timeZone, hourCycle: hourCycleOf(job.workspace) },
    now,
  });
  const common = { workspaceId: row.workspaceId, to, senderUserId: job.createdBy, kind: `job_${row.kind}` };
  if (row.channel === "email") {
    const mail = await sendCustomerMail(db, config, { ...common, subject: text.subject, lines: text.lines });
    if (mail.outcome === "sent")
      return settle(db, row.id, { status: "sent", sentAt: Date.now(), providerId: mail.providerId });
    return settle(db, row.id, heldOr(mail.outcome));
  }
  const sms = await sendCustomerSms(db, config, account!, {
    ...common,
    workspaceName: job.workspace.name,
    text: text.sms,
    statusCallback: smsStatusUrl(config, row.workspaceId),
  });
  if (sms.outcome === "sent")
    return settle(db, row.id, { status: "sent", sentAt: Date.now(), providerId: sms.providerId });
  return settle(db, row.id, heldOr(sms.outcome));
}

/** A refusal as the job's story shows it: unsubscribed and bounced by name, every other reason "held". */
const heldOr = (outcome: string): { status: JobMessageState } => ({
  status: outcome === "unsubscribed" || outcome === "bounced" ? outcome : "held",
});

/**
 * The job's customer link for messages: one per job whose token is an HMAC of the job's id (key
 * derived from WEBHOOK_SECRET_KEY), so every message carries the same link and only its SHA-256
 * is stored, as a member's link is. Made by the workspace (no member: `created_by` null), listed
 * with the workspace's live links; null when a member ended it or it expired.
 */
export async function customerLink(
  db: Db,
  config: Config,
  workspaceId: string,
  jobId: string,
  now: number,
): Promise<string | null> {
  const token = await messageLinkToken(config, jobId);
  const tokenHash = await sha256Hex(token);
  await db
    .insert(jobShares)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      jobId,
      tokenHash,
      createdBy: null,
      createdAt: now,
      expiresAt: now + JOB_SHARE_MAX_DAYS * 24 * 3_600_000,
    })
    .onConflictDoNothing();
  const share = await db
    .select({ endedAt: jobShares.endedAt, expiresAt: jobShares.expiresAt, jobId: jobShares.jobId })
    .from(jobShares)
    .where(eq(jobShares.tokenHash, tokenHash))
    .get();
  if (!share || share.jobId !== jobId || share.endedAt !== null || share.expiresAt <= now) return null;
  return new URL(`/track/${token}`, config.APP_URL).href;
}

async function messageLinkToken(config: Config, jobId: string): Promise<string> {
  const text = new TextEncoder();
  const keyBytes = await crypto.subtle.digest("SHA-256", text.encode(`customer-link:${config.WEBHOOK_SECRET_KEY}`));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, text.encode(jobId))));
}

/** A job's story of messages (`GET /api/jobs/{id}` `messages`): what became of each, never an address. */
export async function jobMessagesOf(db: Db, workspaceId: string, jobId: string): Promise<JobMessage[]> {
  const rows = await db
    .select({
      channel: jobMessages.channel,
      kind: jobMessages.kind,
      status: jobMessages.status,
      sentAt: jobMessages.sentAt,
      updatedAt: jobMessages.updatedAt,
    })
    .from(jobMessages)
    .where(
      and(
        eq(jobMessages.workspaceId, workspaceId),
        eq(jobMessages.jobId, jobId),
        // in-list: the four final states
        inArray(jobMessages.status, ["sent", "held", "bounced", "unsubscribed"]),
      ),
    )
    .orderBy(asc(jobMessages.createdAt))
    .all();
  return rows.map((r) => ({
    channel: r.channel,
    kind: r.kind,
    status: r.status as JobMessage["status"],
    at: new Date(r.sentAt ?? r.updatedAt).toISOString(),
  }));
}
