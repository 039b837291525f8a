import { and, desc, eq, gt, isNull, ne, or } from "drizzle-orm";
import { z } from "zod";
import { Hono, type Context } from "hono";
import {
  createJobShareSchema,
  createdJobShareSchema,
  trackedJobAnswerSchema,
  JOB_SHARE_AFTER_CANCELLATION_MS,
  JOB_SHARE_AFTER_COMPLETION_MS,
  JOB_SHARE_MAX_DAYS,
  TRACK_ENDED,
  TRACK_EXPIRED,
  type CreatedJobShare,
  type TrackedJobAnswer,
  type WorkspaceCustomerLink,
} from "../../shared/jobs/job-shares";
import type { Db } from "../../db/client";
import { jobs, jobShares, telemetry, users, vehicles, workspaces } from "../../db/schema";
import { dayOf } from "../../shared/units/time-zone";
import { requireSession, workspaceSession } from "../auth/session";
import { sendCustomerMail } from "../email/customer-mail";
import { audit } from "../lib/audit";
import { randomToken, sha256Hex } from "../lib/crypto";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { okAnswer } from "../api/route-declaration/answers";
import { declared } from "../api/route-declaration/declare";
import { linkOpenings } from "../lib/link-openings";
import type { AppEnv } from "../types";
import { hourCycleOf } from "../lib/workspace-time-zone";
import { customerMessageSettingsOf, type CustomerMessageSettings } from "../../shared/jobs/customer-messages";
import { PHOTO_TYPES } from "../../shared/maintenance/photos";
import { photoIn, photoObjectKey } from "../photos/photo-store";

/**
 * Customer links of one job (DESIGN.md "Jobs and routes", docs/decisions/0055). Members make them
 * for a job of their workspace (another workspace's: 404); the token is answered once in the URL
 * and kept as its SHA-256. The public read answers the job's title, status, ETA and window and the
 * vehicle's name and position while it comes, and where the visit is; until 30 minutes after the
 * job is completed (410), a day after it is cancelled (it says so meanwhile: issue 53), as soon as
 * it is deleted, and at most JOB_SHARE_MAX_DAYS after the link was made.
 */
export const jobShareRoutes = new Hono<AppEnv>()
  .use(requireSession)
  .post(
    "/:id/shares",
    declared({
      permission: "fleet.edit",
      summary: "Make a customer's link to one job (optionally e-mailed to the job's contact)",
      tag: "Jobs",
      body: createJobShareSchema,
      response: createdJobShareSchema,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const job = await c.var.db
        .select({
          id: jobs.id,
          title: jobs.title,
          status: jobs.status,
          completedAt: jobs.completedAt,
          customerEmail: jobs.customerEmail,
        })
        .from(jobs)
        .where(and(eq(jobs.id, c.req.param("id")), eq(jobs.workspaceId, workspaceId), eq(jobs.deleted, false)))
        .get();
      if (!job) throw notFound("No such job in this workspace");
      const now = Date.now();
      if (
        job.status === "cancelled" ||
        (job.completedAt !== null && now - job.completedAt >= JOB_SHARE_AFTER_COMPLETION_MS)
      )
        throw new ApiError(409, "job_finished", "This job is over: a link to it would show nothing");
      const { email } = c.req.valid("json");
      if (email && !job.customerEmail)
        throw badRequest("The job has no customer e-mail", { email: ["The job has no customer e-mail"] });
      const token = randomToken(32);
      const row = {
        id: crypto.randomUUID(),
        workspaceId,
        jobId: job.id,
        tokenHash: await sha256Hex(token),
        createdBy: c.var.session.userId,
        createdAt: now,
        expiresAt: now + JOB_SHARE_MAX_DAYS * 24 * 3_600_000,
      };
      await c.var.db.insert(jobShares).values(row);
      audit("job_share.created", { shareId: row.id, workspaceId, jobId: job.id, by: c.var.session.userId });
      const url = new URL(`/track/${token}`, c.var.config.APP_URL).href;
      const sent = email
        ? await mailLink(c, { title: job.title, customerEmail: job.customerEmail! }, url, workspaceId)
        : null;
      const answer: CreatedJobShare = { url, expiresAt: new Date(row.expiresAt).toISOString(), email: sent };
      return c.json(answer, 201);
    },
  )
  .delete(
    "/:id/shares/:shareId",
    declared({
      permission: "fleet.edit",
      summary: "End a customer's link to a job at once",
      tag: "Jobs",
      params: z.object({ id: z.string().min(1).max(100), shareId: z.string().min(1).max(100) }),
      response: okAnswer,
    }),
    async (c) => {
      const { workspaceId } = workspaceSession(c.var.session);
      const { id, shareId } = c.req.valid("param");
      const ended = await c.var.db
        .update(jobShares)
        .set({ endedAt: Date.now() })
        .where(
          and(
            eq(jobShares.id, shareId),
            eq(jobShares.jobId, id),
            eq(jobShares.workspaceId, workspaceId),
            isNull(jobShares.endedAt),
          ),
        )
        .returning({ id: jobShares.id });
      if (!ended.length) throw notFound("No such customer link in this workspace");
      audit("job_share.ended", { shareId, workspaceId, by: c.var.session.userId });
      return c.json({ ok: true });
    },
  );

/**
 * The workspace's customer links that still answer (not ended, not expired, their job neither
 * deleted, nor cancelled more than JOB_SHARE_AFTER_CANCELLATION_MS ago, nor done more than
 * JOB_SHARE_AFTER_COMPLETION_MS ago), newest first, with who made them.
 */
export async function liveCustomerLinks(db: Db, workspaceId: string): Promise<WorkspaceCustomerLink[]> {
  const now = Date.now();
  return db
    .select({
      id: jobShares.id,
      jobId: jobShares.jobId,
      jobNumber: jobs.number,
      jobTitle: jobs.title,
      createdAt: jobShares.createdAt,
      expiresAt: jobShares.expiresAt,
      createdBy: jobShares.createdBy,
      createdByEmail: users.email,
    })
    .from(jobShares)
    .innerJoin(jobs, and(eq(jobs.id, jobShares.jobId), eq(jobs.workspaceId, jobShares.workspaceId)))
    .leftJoin(users, eq(users.id, jobShares.createdBy))
    .where(
      and(
        eq(jobShares.workspaceId, workspaceId),
        isNull(jobShares.endedAt),
        gt(jobShares.expiresAt, now),
        eq(jobs.deleted, false),
        or(ne(jobs.status, "cancelled"), gt(jobs.updatedAt, now - JOB_SHARE_AFTER_CANCELLATION_MS)),
        or(isNull(jobs.completedAt), gt(jobs.completedAt, now - JOB_SHARE_AFTER_COMPLETION_MS)),
      ),
    )
    .orderBy(desc(jobShares.createdAt))
    .limit(500)
    .all();
}

/**
 * The link to the job's customer, as mail to someone outside the product (worker/email/customer-mail.ts,
 * docs/decisions/0072): a fixed subject; the job's title, the workspace's words, quoted in the body.
 */
function mailLink(c: Context<AppEnv>, job: { title: string; customerEmail: string }, url: string, workspaceId: string) {
  return sendCustomerMail(c.var.db, c.var.config, {
    workspaceId,
    to: job.customerEmail,
    subject: "Follow your delivery",
    lines: [
      `Your visit "${job.title}" is planned. Follow the vehicle and its expected arrival here:`,
      "",
      url,
      "",
      "The link ends 30 minutes after the visit.",
    ],
    senderUserId: c.var.session.userId,
    kind: "job_share",
  }).then(({ outcome }) => {
    audit("job_share.mailed", { workspaceId, outcome });
    return outcome;
  });
}

const trackOpened = linkOpenings();

/** GET /api/track/{token}: public, its token the credential, rate-limited per address as /share is. */
export const trackRoutes = new Hono<AppEnv>()
  .get(
    "/:token",
    declared({
      permission: "public",
      summary: "What a job's customer link shows: the job's status, ETA and window, the vehicle approaching",
      tag: "Jobs",
      response: trackedJobAnswerSchema,
    }),
    async (c) => {
      c.header("X-Robots-Tag", "noindex, nofollow");
      c.header("Cache-Control", "no-store");
      trackOpened(c);
      const token = c.req.param("token");
      if (token.length > 100) throw notFound("No such link");
      return c.json(await trackedJob(c, token));
    },
  )
  .get(
    "/:token/photo",
    declared({
      permission: "public",
      summary: "The proof photo of a delivered job, where its workspace shows it to customers",
      tag: "Jobs",
      binaryResponse: PHOTO_TYPES,
    }),
    async (c) => {
      c.header("X-Robots-Tag", "noindex, nofollow");
      c.header("Cache-Control", "private, no-store");
      trackOpened(c);
      const token = c.req.param("token");
      if (token.length > 100) throw notFound("No such link");
      const tracked = await trackedJob(c, token);
      const photo = tracked.proofPhotoUrl ? await firstProofPhoto(c, await sha256Hex(token)) : null;
      if (!photo) throw notFound("No photo to show");
      return c.body(photo.body, 200, { "Content-Type": photo.contentType, "Content-Length": String(photo.size) });
    },
  );

/** The first proof photo of the link's job, from the job's own workspace's store. */
async function firstProofPhoto(c: Context<AppEnv>, tokenHash: string) {
  const row = await c.var.db
    .select({ workspaceId: jobs.workspaceId, proofPhotoIds: jobs.proofPhotoIds })
    .from(jobShares)
    .innerJoin(jobs, and(eq(jobs.id, jobShares.jobId), eq(jobs.workspaceId, jobShares.workspaceId)))
    .where(eq(jobShares.tokenHash, tokenHash))
    .get();
  const photoId = row?.proofPhotoIds[0];
  const photo = row && photoId ? await photoIn(c.var.db, row.workspaceId, photoId) : null;
  const object = photo ? await c.env.PHOTOS.get(photoObjectKey(row!.workspaceId, photo.id)) : null;
  return photo && object ? { body: object.body, contentType: photo.contentType, size: photo.size } : null;
}

/**
 * What the link shows now. Read from D1, which the workspace object's flush keeps within a few
 * seconds of the vehicle (FLUSH_MS with the dispatcher's pages open, FLUSH_IDLE_MS without).
 */
async function trackedJob(c: Context<AppEnv>, token: string): Promise<TrackedJobAnswer> {
  const row = await trackedRow(c.var.db, await sha256Hex(token));
  if (!row) throw notFound("No such link");
  const now = Date.now();
  const { job } = row;
  if (row.endedAt !== null) throw new ApiError(410, TRACK_ENDED, "This link was ended by its sender");
  if (job.deleted) throw new ApiError(410, TRACK_ENDED, "This job was called off");
  if (job.status === "cancelled" && now - job.updatedAt >= JOB_SHARE_AFTER_CANCELLATION_MS)
    throw new ApiError(410, TRACK_ENDED, "This job was called off");
  if (row.completedAt !== null && now - row.completedAt >= JOB_SHARE_AFTER_COMPLETION_MS)
    throw new ApiError(410, TRACK_ENDED, "This job is done");
  if (now >= row.expiresAt) throw new ApiError(410, TRACK_EXPIRED, "This link has expired");
  return {
    sender: row.sender,
    job: {
      title: job.title,
      status: job.status,
      eta: isoOrNull(job.eta),
      late: job.late,
      window: row.window,
      date: job.date,
      arrivedAt: isoOrNull(job.arrivedAt),
      completedAt: isoOrNull(row.completedAt),
    },
    destination: row.destination,
    clock: { timeZone: row.timeZone, hourCycle: hourCycleOf(row) },
    vehicle: approachingVehicle(row, now),
    proofPhotoUrl: proofPhotoShown(row) ? `/api/track/${encodeURIComponent(token)}/photo` : null,
  };
}

/** A link's job, its workspace's clock and settings, and its vehicle's last position, in one read. */
function trackedRow(db: Db, tokenHash: string) {
  return db
    .select({
      expiresAt: jobShares.expiresAt,
      endedAt: jobShares.endedAt,
      job: {
        title: jobs.title,
        status: jobs.status,
        eta: jobs.eta,
        late: jobs.late,
        deleted: jobs.deleted,
        date: jobs.date,
        updatedAt: jobs.updatedAt,
        arrivedAt: jobs.arrivedAt,
        proofPhotoIds: jobs.proofPhotoIds,
      },
      customerMessages: workspaces.customerMessages,
      destination: { latitude: jobs.latitude, longitude: jobs.longitude, address: jobs.address },
      timeZone: workspaces.timeZone,
      hourCycle: workspaces.hourCycle,
      sender: workspaces.name,
      window: { start: jobs.windowStart, end: jobs.windowEnd },
      completedAt: jobs.completedAt,
      vehicle: { name: vehicles.name, deleted: vehicles.deleted },
      position: { latitude: telemetry.latitude, longitude: telemetry.longitude, at: telemetry.recordedAt },
    })
    .from(jobShares)
    .innerJoin(jobs, and(eq(jobs.id, jobShares.jobId), eq(jobs.workspaceId, jobShares.workspaceId)))
    .innerJoin(workspaces, eq(workspaces.id, jobShares.workspaceId))
    .leftJoin(vehicles, and(eq(vehicles.id, jobs.vehicleId), eq(vehicles.workspaceId, jobs.workspaceId)))
    .leftJoin(telemetry, eq(telemetry.vehicleId, vehicles.id))
    .where(eq(jobShares.tokenHash, tokenHash))
    .get();
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The proof photo, after delivery, where the workspace shows it to its customers (docs/decisions/0085). */
function proofPhotoShown(row: {
  job: { status: string; proofPhotoIds: string[] };
  customerMessages: Partial<CustomerMessageSettings>;
}) {
  return (
    row.job.status === "completed" &&
    row.job.proofPhotoIds.length > 0 &&
    customerMessageSettingsOf(row.customerMessages).showProofPhoto
  );
}

/**
 * The vehicle, only while it is on its way to this stop or there, on the job's own day in the
 * workspace's zone: before, it is on other people's jobs; after, it is someone else's (issue 51).
 */
function approachingVehicle(
  row: {
    job: { status: string; date: string };
    timeZone: string;
    vehicle: { name: string; deleted: boolean } | null;
    position: { latitude: number | null; longitude: number | null; at: number | null } | null;
  },
  now: number,
): TrackedJobAnswer["vehicle"] {
  const { job, vehicle, position } = row;
  const approaching = (job.status === "en_route" || job.status === "arrived") && job.date === dayOf(now, row.timeZone);
  if (!approaching || !vehicle || vehicle.deleted) return null;
  const known = position?.latitude != null && position.longitude != null && position.at != null;
  return {
    name: vehicle.name,
    position: known
      ? { latitude: position.latitude!, longitude: position.longitude!, at: new Date(position.at!).toISOString() }
      : null,
  };
}
