import { z } from "zod";

/**
 * Service schedules and entries (DESIGN.md "Maintenance"): one schema for the REST API and the
 * app's forms, and the one rule that says when a schedule is due, used by the API, the due
 * notifications (worker/maintenance/due-notifications.ts) and the app alike.
 */

export const serviceStatuses = ["ok", "due_soon", "overdue"] as const;
export type ServiceStatus = (typeof serviceStatuses)[number];

/** Due soon: within this share of the interval (DESIGN.md: 10 %). */
export const DUE_SOON_SHARE = 0.1;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** What a schedule's status is computed from: its intervals and when it was last done. */
export interface ScheduleBasis {
  everyMiles: number | null;
  everyEngineHours: number | null;
  everyDays: number | null;
  /** ms since epoch */
  lastDoneAt: number;
  lastDoneOdometerMiles: number | null;
  lastDoneEngineHours: number | null;
}

/** The vehicle as it is now: its odometer (miles) and engine hours, when known. */
export interface VehicleReading {
  odometerMiles: number | null;
  engineHours: number | null;
}

export interface ScheduleDue {
  status: ServiceStatus;
  nextDueMiles: number | null;
  /** ms since epoch */
  nextDueAt: number | null;
  nextDueEngineHours: number | null;
}

const rank: Record<ServiceStatus, number> = { ok: 0, due_soon: 1, overdue: 2 };
export const worseStatus = (a: ServiceStatus, b: ServiceStatus): ServiceStatus => (rank[b] > rank[a] ? b : a);

/** One interval's status: overdue at or past the due figure, due soon within 10 % of the interval before it. */
function intervalStatus(current: number | null, due: number, interval: number): ServiceStatus {
  if (current === null) return "ok";
  if (current >= due) return "overdue";
  return due - current <= interval * DUE_SOON_SHARE ? "due_soon" : "ok";
}

/**
 * A schedule's status and next due figures: each interval it has is counted from when it was last
 * done, and whichever comes first decides (the worst of the intervals' statuses). An interval
 * whose current figure is unknown (no odometer yet, no ignition data) is never due by itself; an
 * interval with no baseline starts from 0.
 */
export function scheduleDue(s: ScheduleBasis, vehicle: VehicleReading, now: number): ScheduleDue {
  let status: ServiceStatus = "ok";
  let nextDueMiles: number | null = null;
  let nextDueAt: number | null = null;
  let nextDueEngineHours: number | null = null;
  if (s.everyMiles && s.lastDoneOdometerMiles !== null) {
    nextDueMiles = s.lastDoneOdometerMiles + s.everyMiles;
    status = worseStatus(status, intervalStatus(vehicle.odometerMiles, nextDueMiles, s.everyMiles));
  }
  if (s.everyEngineHours && s.lastDoneEngineHours !== null) {
    nextDueEngineHours = s.lastDoneEngineHours + s.everyEngineHours;
    status = worseStatus(status, intervalStatus(vehicle.engineHours, nextDueEngineHours, s.everyEngineHours));
  }
  if (s.everyDays) {
    nextDueAt = s.lastDoneAt + s.everyDays * DAY_MS;
    status = worseStatus(status, intervalStatus(now, nextDueAt, s.everyDays * DAY_MS));
  }
  return { status, nextDueMiles, nextDueAt, nextDueEngineHours };
}

// ------------------------------------------------------------------ REST bodies

const id = z.string().min(1).max(100);
const isoDay = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day, YYYY-MM-DD, that exists. */
export const daySchema = z
  .string({ required_error: "Required" })
  .regex(isoDay, "Use YYYY-MM-DD")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    "No such day",
  );
const positive = (what: string, max: number) =>
  z
    .number({ invalid_type_error: `Enter a number of ${what}` })
    .positive(`More than 0 ${what}`)
    .max(max, `At most ${max} ${what}`);
const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

export const serviceScheduleBodySchema = z
  .object({
    vehicleId: id,
    name: text(120).min(1, "Required"),
    everyMiles: positive("miles", 1_000_000).nullish(),
    everyEngineHours: positive("hours", 100_000).nullish(),
    everyDays: z
      .number({ invalid_type_error: "Enter a number of days" })
      .int("Whole days")
      .positive("More than 0 days")
      .max(3650, "At most 3650 days")
      .nullish(),
    /** The day (YYYY-MM-DD) or moment (ISO 8601) it was last done; now when absent. */
    lastDoneAt: z
      .union([daySchema, z.string().datetime({ offset: true, message: "Use YYYY-MM-DD or an ISO 8601 time" })])
      .nullish(),
    lastDoneOdometerMiles: z
      .number({ invalid_type_error: "Enter miles" })
      .min(0, "0 or more")
      .max(10_000_000)
      .nullish(),
    lastDoneEngineHours: z.number({ invalid_type_error: "Enter hours" }).min(0, "0 or more").max(1_000_000).nullish(),
  })
  .refine((b) => b.everyMiles || b.everyEngineHours || b.everyDays, {
    message: "Give at least one interval: miles, engine hours or days",
    path: ["everyMiles"],
  });
export type ServiceScheduleBody = z.input<typeof serviceScheduleBodySchema>;

export const serviceEntryBodySchema = z.object({
  vehicleId: id,
  date: daySchema,
  odometerMiles: z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000).nullish(),
  engineHours: z.number({ invalid_type_error: "Enter hours" }).min(0, "0 or more").max(1_000_000).nullish(),
  scheduleIds: z.array(id).max(50, "At most 50 schedules").default([]),
  description: text(2000).nullish(),
  costCents: z
    .number({ invalid_type_error: "Enter a cost" })
    .int("Whole cents")
    .min(0, "0 or more")
    .max(100_000_000_00)
    .nullish(),
  vendor: text(200).nullish(),
  notes: text(4000).nullish(),
  photoIds: z.array(id).max(20, "At most 20 photos").default([]),
  resolvesIssueIds: z.array(id).max(50, "At most 50 issues").default([]),
});
export type ServiceEntryBody = z.input<typeof serviceEntryBodySchema>;

/** A schedule as the REST API answers it (times ISO 8601). */
export interface ServiceSchedule {
  id: string;
  vehicleId: string;
  name: string;
  everyMiles: number | null;
  everyEngineHours: number | null;
  everyDays: number | null;
  lastDoneAt: string;
  lastDoneOdometerMiles: number | null;
  lastDoneEngineHours: number | null;
  status: ServiceStatus;
  nextDueMiles: number | null;
  nextDueAt: string | null;
  nextDueEngineHours: number | null;
}

export interface ServiceEntry {
  id: string;
  vehicleId: string;
  date: string;
  odometerMiles: number | null;
  engineHours: number | null;
  description: string | null;
  costCents: number | null;
  vendor: string | null;
  notes: string | null;
  photoIds: string[];
  scheduleIds: string[];
  resolvesIssueIds: string[];
  createdAt: string;
}

export const serviceStatusLabels: Record<ServiceStatus, string> = {
  ok: "OK",
  due_soon: "Due soon",
  overdue: "Overdue",
};
