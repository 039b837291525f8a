import type { JobStatus } from "./jobs";
import type { CustomerMessageChannel, CustomerMessageKind, CustomerMessageSettings } from "./customer-messages";

/**
 * A change of a job that may tell its customer, as `job_changes` records it (migrations/0055):
 * its status became `status`, or it moved to another day while its status was `status`.
 */
export interface JobChange {
  change: "status" | "date";
  status: JobStatus;
}

/** What a job change may queue, beside the job's addresses and what its customer was told. */
export interface JobChangeContext {
  settings: CustomerMessageSettings;
  /** A message about this visit has reached the customer (the story shows one "sent"). */
  told: boolean;
  email: string | null;
  phone: string | null;
}

/**
 * The statuses whose change may tell a customer: the trigger of migrations/0055 records changes to
 * these alone (a narrowing of what it writes, checked against this list by a Worker test);
 * `messagesForJobChange` decides.
 */
export const TELLING_STATUSES = ["en_route", "completed", "cancelled"] as const satisfies readonly JobStatus[];

/**
 * The one rule of which messages a job's change queues (docs/decisions/0085, amended): on its way
 * and done when the workspace chose them; a cancellation, or a move to another day of a visit not
 * yet done, as "failed", and only to a customer who was already told of the visit (one told
 * nothing is not told that something they never heard of was called off). A skipped stop is not a
 * failure: it may still be reached. One message per channel the job has an address for.
 */
export function messagesForJobChange(
  change: JobChange,
  context: JobChangeContext,
): { kind: CustomerMessageKind; channel: CustomerMessageChannel }[] {
  const kind = kindOfChange(change, context);
  if (!kind) return [];
  const channels: CustomerMessageChannel[] = [];
  if (context.email !== null) channels.push("email");
  if (context.phone !== null) channels.push("sms");
  return channels.map((channel) => ({ kind, channel }));
}

function kindOfChange({ change, status }: JobChange, { settings, told }: JobChangeContext): CustomerMessageKind | null {
  if (change === "date")
    return status !== "completed" && status !== "cancelled" && told && settings.failed ? "failed" : null;
  if (status === "en_route") return settings.enRoute ? "en_route" : null;
  if (status === "completed") return settings.completed ? "completed" : null;
  if (status === "cancelled") return told && settings.failed ? "failed" : null;
  return null;
}
