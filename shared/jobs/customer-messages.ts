import { z } from "zod";

/**
 * What a workspace tells its customers about their visit (issue 53, DESIGN.md "Jobs and routes",
 * docs/decisions/0085): on the way with the ETA, arriving when the ETA is within some minutes,
 * done (with the proof photo on the tracking page if allowed), and failed when a visit they were
 * told about is called off or moved to another day. E-mail to the job's `customerEmail`, a text
 * to its `customerPhone` where an SMS provider is configured; each kind at most once per job.
 */
export const customerMessageKinds = ["en_route", "arriving", "completed", "failed"] as const;
export type CustomerMessageKind = (typeof customerMessageKinds)[number];
export const customerMessageChannels = ["email", "sms"] as const;
export type CustomerMessageChannel = (typeof customerMessageChannels)[number];
/** What the job's story shows: "held" is kept back by a cap or an unconfirmed sender, or the provider failing. */
export const jobMessageStatuses = ["sent", "held", "bounced", "unsubscribed"] as const;
export type JobMessageStatus = (typeof jobMessageStatuses)[number];
/** As stored: also waiting to go, and claimed by a sender. */
export type JobMessageState = JobMessageStatus | "queued" | "sending";

/** The most "arriving" minutes a workspace may choose: past an hour, "on the way" says it. */
export const MAX_ARRIVING_MINUTES = 60;

export const customerMessageSettingsSchema = z
  .object({
    enRoute: z.boolean({ invalid_type_error: "enRoute must be true or false" }),
    arrivingMinutes: z
      .number({ invalid_type_error: "Enter minutes, or null for no arriving message" })
      .int("Whole minutes")
      .min(1, "At least 1 minute")
      .max(MAX_ARRIVING_MINUTES, `At most ${MAX_ARRIVING_MINUTES} minutes`)
      .nullable(),
    completed: z.boolean({ invalid_type_error: "completed must be true or false" }),
    failed: z.boolean({ invalid_type_error: "failed must be true or false" }),
    showProofPhoto: z.boolean({ invalid_type_error: "showProofPhoto must be true or false" }),
  })
  .strict();
export type CustomerMessageSettings = z.infer<typeof customerMessageSettingsSchema>;

/** Until an owner or admin chooses: nothing goes (customers entered before were never told). */
export const NO_CUSTOMER_MESSAGES: CustomerMessageSettings = {
  enRoute: false,
  arrivingMinutes: null,
  completed: false,
  failed: false,
  showProofPhoto: false,
};

/** The stored value (a JSON object that may lack keys written later) as settings. */
export function customerMessageSettingsOf(stored: Partial<CustomerMessageSettings> | null | undefined) {
  return { ...NO_CUSTOMER_MESSAGES, ...(stored ?? {}) };
}

/** One message of a job's story (`GET /api/jobs/{id}` `messages`): never its address. */
export const jobMessageSchema = z.object({
  channel: z.enum(customerMessageChannels),
  kind: z.enum(customerMessageKinds),
  /** ISO 8601: when it was sent, or when it was last tried. */
  at: z.string(),
  status: z.enum(jobMessageStatuses),
});
export type JobMessage = z.infer<typeof jobMessageSchema>;

/**
 * A customer's phone as a job keeps it: E.164 ("+13125550100"). Spaces, dashes, dots and brackets
 * are dropped first, as people write numbers with them; empty is none (null clears it).
 */
export const customerPhoneField = z.preprocess(
  (v) => (typeof v === "string" ? v.replace(/[\s().-]/g, "") || null : v),
  z
    .string({ invalid_type_error: "Enter a phone number" })
    .regex(/^\+[1-9]\d{6,14}$/, "Use the international form, + and the country code: +13125550100")
    .nullish(),
);
