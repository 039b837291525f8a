import { hourCycleValues } from "../units/clock";
import { z } from "zod";
import { creatorFields } from "../account/api-tokens";
import type { JobStatus } from "./jobs";

/**
 * A customer's link to one job (DESIGN.md "Jobs and routes", docs/decisions/0055):
 * `POST /api/jobs/{id}/shares` makes it (optionally e-mailed to the job's contact), the public page
 * /track/{token} reads `GET /api/track/{token}`: the job's title, status, ETA and window, and the
 * vehicle's name and position while it is on its way or there; nothing else of the workspace.
 */
export const JOB_SHARE_MAX_DAYS = 7;
/** The link ends this long after its job is completed. */
export const JOB_SHARE_AFTER_COMPLETION_MS = 30 * 60_000;
/**
 * A cancelled job's link says so for this long after the cancellation (the job's last change), then
 * ends (410); retention deletes it a day after (worker/retention.ts). Rescheduled meanwhile, it
 * answers the new plan again (issue 53).
 */
export const JOB_SHARE_AFTER_CANCELLATION_MS = 24 * 3_600_000;

export const createJobShareSchema = z.object({
  /** E-mail the link to the job's customer (through the member-mail rules; fixed subject). */
  email: z.boolean({ invalid_type_error: "email must be true or false" }).default(false),
});
export type CreateJobShareBody = z.input<typeof createJobShareSchema>;

/**
 * What became of a mail to a customer (worker/email/customer-mail.ts): sent, or why not. Never
 * whether the address has an account: an account's address and a stranger's are answered alike.
 */
export const customerMailOutcomeSchema = z.enum([
  "sent",
  "unsubscribed",
  "over_limit",
  "sender_unconfirmed",
  "not_sent",
]);
export type CustomerMailOutcome = z.infer<typeof customerMailOutcomeSchema>;

export const createdJobShareSchema = z.object({
  url: z.string(),
  expiresAt: z.string(),
  /** What became of the e-mail, or null when none was asked for. */
  email: customerMailOutcomeSchema.nullable(),
});
export type CreatedJobShare = z.infer<typeof createdJobShareSchema>;

export const trackedJobAnswerSchema = z.object({
  /** The workspace that sent the link: the job's words are theirs, and the page says so (issue 51). */
  sender: z.string(),
  job: z.object({
    title: z.string(),
    status: z.string(),
    /** ISO 8601, while the vehicle is on its way */
    eta: z.string().nullable(),
    late: z.boolean(),
    /** "HH:MM", the job's local window */
    window: z.object({ start: z.string().nullable(), end: z.string().nullable() }),
    /** The job's day (YYYY-MM-DD) in the workspace's zone, which its window is on. */
    date: z.string(),
    /** ISO 8601: when the vehicle first reached the stop ("Arrived at 14:32"), else null (issue 53). */
    arrivedAt: z.string().nullable(),
    /** ISO 8601: when the job was done ("Delivered at 14:32"), else null (issue 53). */
    completedAt: z.string().nullable(),
  }),
  /**
   * Where the visit is: the page marks it on the map and centres there, so a finished job never
   * shows a map of nowhere (issue 53). The customer's own point, and the address the job names.
   */
  destination: z.object({ latitude: z.number(), longitude: z.number(), address: z.string().nullable() }),
  /**
   * The sender's clock (docs/decisions/0079): the page writes the ETA and the window on it, so the
   * customer reads both in the workspace's zone, named where theirs differs.
   */
  clock: z.object({ timeZone: z.string(), hourCycle: z.enum(hourCycleValues) }),
  vehicle: z
    .object({
      name: z.string(),
      position: z.object({ latitude: z.number(), longitude: z.number(), at: z.string() }).nullable(),
    })
    .nullable(),
  /**
   * After delivery, where the workspace shows its customers the proof photo (Preferences, customer
   * messages `showProofPhoto`; docs/decisions/0085): `GET /api/track/{token}/photo`. Null otherwise.
   */
  proofPhotoUrl: z.string().nullable(),
});
export type TrackedJobAnswer = z.infer<typeof trackedJobAnswerSchema> & { job: { status: JobStatus } };

/** The error codes of a link that no longer answers (410). */
export const TRACK_ENDED = "track_ended";
export const TRACK_EXPIRED = "track_expired";

/**
 * A live customer link as owners and admins see it beside the vehicle share links (`GET
 * /api/workspaces/{id}/shares`, issue 51): which job, who made it, until when; `DELETE
 * /api/jobs/{jobId}/shares/{id}` ends it at once.
 */
export const workspaceCustomerLinkSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  jobNumber: z.number(),
  jobTitle: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  ...creatorFields,
});
export type WorkspaceCustomerLink = z.infer<typeof workspaceCustomerLinkSchema>;

/** GET /api/unsubscribe/{token}: which workspace the link stops mail from, and whether it already has. */
export const unsubscribeStateSchema = z.object({ workspace: z.string(), unsubscribed: z.boolean() });
export type UnsubscribeState = z.infer<typeof unsubscribeStateSchema>;
