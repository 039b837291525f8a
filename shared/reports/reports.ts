import { z } from "zod";
import { INSTANT_RANGE_MESSAGE, inInstantRange, isDayInRange } from "../units/instant";
import { addDays, daysBetween, timeZoneField } from "../units/time-zone";
import { workspaceUnitsValues } from "../units/units";
import { hourCycleValues } from "../units/clock";
import { customerMessageSettingsSchema } from "../jobs/customer-messages";

/**
 * Reports (DESIGN.md "Reports"): GET /api/reports/{summary|trips|stops|daily}. The same rows
 * answer as JSON `{ rows }` and as CSV, whose header row is these keys: every quantity carries
 * its unit in its name (miles, seconds, mph, percent), every time is ISO 8601 with the
 * workspace's offset.
 */
export const reportNames = ["summary", "trips", "stops", "daily", "jobs"] as const;
export type ReportName = (typeof reportNames)[number];
export const MAX_REPORT_DAYS = 92;

/** A day (YYYY-MM-DD) or an ISO 8601 instant; an instant stands for its day in the workspace's zone. */
const dayOrInstant = z
  .string({ required_error: "Required" })
  .trim()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) || !Number.isNaN(Date.parse(v)),
    "Use a date (2026-11-23) or an ISO 8601 time",
  )
  // a day that exists, or an instant, in the years 2000 to 2100 (issue 34: +275760-09-13 was a 500)
  .refine(
    (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? isDayInRange(v) : inInstantRange(Date.parse(v))),
    INSTANT_RANGE_MESSAGE,
  );

export const reportQuerySchema = z.object({
  from: dayOrInstant,
  to: dayOrInstant,
  /** none: every vehicle of the workspace */
  vehicleId: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(z.array(z.string().min(1).max(100)).max(1000, "At most 1000 vehicles")),
  format: z.enum(["json", "csv"]).default("json"),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** Checks a range of local days: from not after to, at most MAX_REPORT_DAYS days. Null when fine. */
export function rangeProblem(fromDay: string, toDay: string): string | null {
  const days = daysBetween(fromDay, toDay) + 1;
  if (days < 1) return "`from` is after `to`";
  if (days > MAX_REPORT_DAYS) return `A report covers at most ${MAX_REPORT_DAYS} days; this range has ${days}`;
  return null;
}

/** The range presets of /reports, as local days ending `today`. */
export const rangePresets = {
  today: (today: string) => ({ from: today, to: today }),
  yesterday: (today: string) => ({ from: addDays(today, -1), to: addDays(today, -1) }),
  last7: (today: string) => ({ from: addDays(today, -6), to: today }),
  last30: (today: string) => ({ from: addDays(today, -29), to: today }),
} as const;
export type RangePreset = keyof typeof rangePresets;

export interface SummaryRow {
  vehicleId: string;
  vehicleName: string;
  distanceMiles: number;
  drivingSeconds: number;
  idlingSeconds: number;
  trips: number;
  stops: number;
  maxSpeedMph: number;
  averageSpeedMph: number;
  speedingEpisodes: number;
  /** null where the device reports no fuel */
  fuelUsedPercent: number | null;
}

export interface DailyRow extends SummaryRow {
  /** YYYY-MM-DD, the workspace's day */
  day: string;
}

export interface TripRow {
  vehicleId: string;
  vehicleName: string;
  driver: string | null;
  /** TRANSIT (driven) or TOW (moved with the ignition off) */
  type: "TRANSIT" | "TOW";
  start: string;
  end: string;
  startLatitude: number | null;
  startLongitude: number | null;
  startAddress: string | null;
  endLatitude: number | null;
  endLongitude: number | null;
  endAddress: string | null;
  distanceMiles: number;
  durationSeconds: number;
  maxSpeedMph: number | null;
  averageSpeedMph: number;
  /** still going at the end of the range (reported up to it) */
  inProgress: boolean;
}

export interface StopRow {
  vehicleId: string;
  vehicleName: string;
  start: string;
  end: string;
  durationSeconds: number;
  latitude: number | null;
  longitude: number | null;
  address: string | null;
  /** time standing with the engine on */
  idlingSeconds: number;
  /** "on" when the engine ran (idling) for any of the stop, else "off" */
  ignition: "on" | "off";
  inProgress: boolean;
}

/** The on-time report (`GET /api/reports/jobs`, issue 43): per vehicle and its driver. */
export interface JobsReportRow {
  vehicleId: string;
  vehicleName: string;
  driver: string | null;
  jobs: number;
  completed: number;
  onTime: number;
  late: number;
  skipped: number;
  averageDwellMinutes: number | null;
}

/** The on-time report's figures for one local day of its range, over the same vehicles and jobs as its rows. */
export interface JobsReportDay {
  /** `YYYY-MM-DD` in the workspace's time zone */
  day: string;
  jobs: number;
  completed: number;
  onTime: number;
  late: number;
  skipped: number;
  averageDwellMinutes: number | null;
}

export interface ReportResponse<Row> {
  rows: Row[];
  /** Jobs on time: every day of the range (the page's chart; not in the CSV, whose rows are vehicles) */
  days?: JobsReportDay[];
  /** Summary: the fleet total (vehicleId "", vehicleName "Fleet total") */
  total?: SummaryRow;
  timeZone: string;
  from: string;
  to: string;
  /** more rows matched than one answer holds */
  truncated?: boolean;
}

const preferenceFields = {
  timeZone: timeZoneField,
  units: z.enum(workspaceUnitsValues),
  hourCycle: z.enum(hourCycleValues, { message: "Use h12 (3:19 PM) or h23 (15:19)" }),
  /** What the workspace's customers are told (shared/jobs/customer-messages.ts, docs/decisions/0085). */
  customerMessages: customerMessageSettingsSchema,
  /** A work order needs a line (labour or part) to be completed (docs/decisions/0092); off by default. */
  workOrderLinesRequired: z.boolean(),
};

/**
 * GET /api/workspace/preferences: the time zone, the units the screens show (shared/units/units.ts)
 * and the hour cycle times are written in (shared/units/clock.ts; the zone's country's until chosen),
 * what customers are told, and whether texts can go (the workspace configured its own Twilio account).
 */
export const workspacePreferencesSchema = z.object({
  ...preferenceFields,
  customerSms: z
    .boolean()
    .describe(
      "The workspace configured its Twilio account (PUT /api/workspace/sms): customers with a phone are texted too",
    ),
});
export type WorkspacePreferences = z.infer<typeof workspacePreferencesSchema>;
/** PATCH /api/workspace/preferences: any of them; customerMessages' keys left out keep their value. */
export const workspacePreferencesPatchSchema = z
  .object({ ...preferenceFields, customerMessages: customerMessageSettingsSchema.partial() })
  .partial()
  .superRefine((p, ctx) => {
    if (Object.values(p).every((v) => v === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["timeZone"],
        message: "Send timeZone, units, hourCycle, customerMessages, workOrderLinesRequired or any of them",
      });
  });

/** PUT /api/reports/subscription: the viewer's summary by e-mail in this workspace. */
export const reportSubscriptionSchema = z.object({ frequency: z.enum(["daily", "weekly", "none"]) });
export type ReportSubscription = z.infer<typeof reportSubscriptionSchema>;
