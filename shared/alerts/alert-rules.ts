import { z } from "zod";

/**
 * Alert rules (DESIGN.md "Places and alerts"): what to watch, for which vehicles, and whom to
 * tell. One schema for the REST API, the Replicache mutators and the Inbox's rule form.
 */
export const ALERT_RULE_PREFIX = "alert-rule/";
export const alertRuleKey = (id: string) => `${ALERT_RULE_PREFIX}${id}`;
export const ALERT_PREFIX = "alert/";
export const alertKey = (id: string) => `${ALERT_PREFIX}${id}`;

export const alertTypes = [
  "place_enter",
  "place_exit",
  "speeding",
  "idling",
  "tow",
  "beacon_silent",
  "clock_ahead",
  "fuel_drop",
  "job_late",
  "job_arrived",
  "job_completed",
] as const;
export type AlertType = (typeof alertTypes)[number];

/**
 * Inbox entries no rule raises: a service schedule that became due soon or overdue (issue 32,
 * worker/maintenance/due-notifications.ts). Their `ruleId` is the schedule's id.
 */
export const noticeTypes = ["service_due_soon", "service_overdue"] as const;
export type NoticeType = (typeof noticeTypes)[number];
/** What an alert (an Inbox entry) can be: a rule's type, or a notice. */
export type AlertKind = AlertType | NoticeType;
export const isNotice = (type: AlertKind): type is NoticeType => (noticeTypes as readonly string[]).includes(type);

export const alertTypeLabels: Record<AlertKind, string> = {
  service_due_soon: "Service due soon",
  service_overdue: "Service overdue",
  place_enter: "Entered a place",
  place_exit: "Left a place",
  speeding: "Speeding",
  idling: "Idling",
  tow: "Towed",
  beacon_silent: "Beacon silent",
  clock_ahead: "Device clock ahead",
  fuel_drop: "Fuel drop",
  job_late: "Job running late",
  job_arrived: "Arrived at a job",
  job_completed: "Job completed",
};

const id = z.string().min(1).max(100);
/** Alert rules per workspace (issue 34): each one is evaluated on every report. */
export const MAX_ALERT_RULES = 100;
const notifySchema = z.object({
  emails: z.array(z.string().trim().email("Enter an e-mail address")).max(20, "At most 20 addresses").default([]),
  webhookUrl: z
    .string()
    // a queue message carries the URL: 2 KB keeps every message far under the queue's 128 KB (issue 34)
    .max(2048, "At most 2,048 characters")
    .url("Enter a URL")
    .refine((url) => /^https?:\/\//i.test(url), "The webhook URL must use https")
    .nullable()
    .optional(),
});
export type AlertNotify = z.infer<typeof notifySchema>;

const common = {
  vehicleIds: z.array(id).max(1000).nullable().optional(),
  notify: notifySchema.nullable().optional(),
};
const minutes = (max: number) =>
  z
    .number({ invalid_type_error: "Enter a number of minutes" })
    .int("Whole minutes")
    .min(1, "At least 1 minute")
    .max(max, `At most ${max} minutes`);

export const alertRuleBodySchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("place_enter"), placeId: id.nullable().optional(), ...common }),
    z.object({ type: z.literal("place_exit"), placeId: id.nullable().optional(), ...common }),
    z.object({
      type: z.literal("speeding"),
      speedMph: z
        .number({ invalid_type_error: "Enter a speed" })
        .positive("More than 0 mph")
        .max(200, "At most 200 mph"),
      minSeconds: z
        .number({ invalid_type_error: "Enter seconds" })
        .int()
        .min(0, "0 or more seconds")
        .max(3600, "At most 3600 seconds")
        .default(0),
      ...common,
    }),
    z.object({ type: z.literal("idling"), minutes: minutes(1440), ...common }),
    z.object({ type: z.literal("tow"), ...common }),
    z.object({ type: z.literal("beacon_silent"), minutes: minutes(10_080), ...common }),
    z.object({ type: z.literal("clock_ahead"), ...common }),
    // A fuel drop the beacon's fuel level showed (docs/decisions/0050); with `minLitres`, only one that
    // lost at least that much, which needs the vehicle's tank.
    z.object({
      type: z.literal("fuel_drop"),
      minLitres: z
        .number({ invalid_type_error: "Enter litres" })
        .positive("More than 0 litres")
        .max(2000, "At most 2,000 litres")
        .optional(),
      ...common,
    }),
    // jobs (issue 43): raised by the workspace object's job tracking (domain/jobs/job-alerts.ts)
    z.object({ type: z.literal("job_late"), ...common }),
    z.object({ type: z.literal("job_arrived"), ...common }),
    z.object({ type: z.literal("job_completed"), ...common }),
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator"
        ? { message: `type must be one of ${alertTypes.join(", ")}` }
        : { message: ctx.defaultError },
  },
);
export type AlertRuleBody = z.input<typeof alertRuleBodySchema>;
export type AlertRuleConfig = z.output<typeof alertRuleBodySchema>;
export type AlertRule = AlertRuleConfig & { id: string };

/** An alert as synced and listed (times in ms in the store; ISO 8601 in the REST API). */
export interface Alert {
  id: string;
  type: AlertKind;
  ruleId: string;
  vehicleId: string;
  placeId: string | null;
  at: number;
  /** an episode's end; null while it goes on and for instant alerts (enter, exit) */
  endAt: number | null;
  latitude: number;
  longitude: number;
  /** the episode's peak: mph for speeding and tow, seconds ahead for the clock, litres lost for a fuel drop */
  peak: number | null;
  /** The job a job_late, job_arrived or job_completed alert is about, as it was then (absent: none). */
  jobId?: string | null;
  jobNumber?: number | null;
  jobTitle?: string | null;
}

export const appliesTo = (rule: Pick<AlertRule, "vehicleIds">, vehicleId: string) =>
  !rule.vehicleIds || rule.vehicleIds.includes(vehicleId);
