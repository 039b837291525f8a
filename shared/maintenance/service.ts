import { z } from "zod";
import { addDays } from "../units/time-zone";
import { placedAfter } from "../fields/field-table";
import { type ServiceEntryTableValues, serviceEntryTable } from "./service-entry-fields";
import { type ServiceScheduleTableValues, serviceScheduleTable } from "./service-schedule-fields";

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
/**
 * A calendar day from `back` days before today to `ahead` days after (issue 51: an expense dated
 * 9999-12-31, a renewal renewed to 1999), read when the value is checked. Today is UTC's, with a
 * day more either side, so no time zone's today is refused; the message names the range.
 */
export function dayWithin(back: number, ahead: number) {
  return daySchema.superRefine((day, ctx) => {
    const today = new Date().toISOString().slice(0, 10);
    const first = addDays(today, -back - 1);
    const last = addDays(today, ahead + 1);
    if (day < first || day > last) ctx.addIssue({ code: "custom", message: `Use a date from ${first} to ${last}` });
  });
}
/**
 * A schedule's fields, before the rule that it has an interval: the vehicle, the table's
 * (shared/maintenance/service-schedule-fields.ts: the name and intervals) and the last-done basis.
 */
const serviceScheduleFields = z.object({
  vehicleId: id,
  ...serviceScheduleTable.inputs,
  /** The day (YYYY-MM-DD) or moment (ISO 8601) it was last done; now when absent. */
  lastDoneAt: z
    .union([daySchema, z.string().datetime({ offset: true, message: "Use YYYY-MM-DD or an ISO 8601 time" })])
    .nullish(),
  lastDoneOdometerMiles: z.number({ invalid_type_error: "Enter miles" }).min(0, "0 or more").max(10_000_000).nullish(),
  lastDoneEngineHours: z.number({ invalid_type_error: "Enter hours" }).min(0, "0 or more").max(1_000_000).nullish(),
});

/** At least one interval, said on the miles field (the first of them in the form). */
const hasInterval = (b: { everyMiles?: number | null; everyEngineHours?: number | null; everyDays?: number | null }) =>
  Boolean(b.everyMiles || b.everyEngineHours || b.everyDays);
const intervalRule = { message: "Give at least one interval: miles, engine hours or days", path: ["everyMiles"] };

export const serviceScheduleBodySchema = serviceScheduleFields.refine(hasInterval, intervalRule);
export type ServiceScheduleBody = z.input<typeof serviceScheduleBodySchema>;

/**
 * `PATCH /api/service-schedules/{id}`: the fields of "Add schedule" but the vehicle, each optional.
 * An interval set to null is removed; the last-done fields move the basis only when given (null or
 * absent: kept). Whether the result still has an interval is checked against the stored schedule
 * (scheduleAfterPatch).
 */
export const serviceSchedulePatchSchema = serviceScheduleFields.omit({ vehicleId: true }).partial();
export type ServiceSchedulePatch = z.input<typeof serviceSchedulePatchSchema>;

type Intervals = Pick<ScheduleBasis, "everyMiles" | "everyEngineHours" | "everyDays">;
type Editable = ServiceScheduleTableValues & Omit<ScheduleBasis, keyof Intervals>;
const INTERVALS: (keyof Intervals)[] = ["everyMiles", "everyEngineHours", "everyDays"];

/**
 * A schedule with a patch applied (the server's write and the browser's optimistic copy alike), or
 * null when it would be left without an interval. `intervalsChanged` says whether its due figures
 * count anew (its due notifications of the period were about the old intervals). The table's
 * fields follow the kit (an interval's null removes it); the last-done basis is kept unless given.
 */
export function scheduleAfterPatch<S extends Editable>(
  current: S,
  patch: z.output<typeof serviceSchedulePatchSchema>,
  now: number,
): { schedule: S; intervalsChanged: boolean } | null {
  const fields = serviceScheduleTable.patched(serviceScheduleTable.valuesOf(current), patch);
  if (!hasInterval(fields)) return null;
  const schedule: S = {
    ...current,
    ...fields,
    lastDoneAt: patch.lastDoneAt ? lastDoneAtMs(patch.lastDoneAt, now) : current.lastDoneAt,
    lastDoneOdometerMiles: patch.lastDoneOdometerMiles ?? current.lastDoneOdometerMiles,
    lastDoneEngineHours: patch.lastDoneEngineHours ?? current.lastDoneEngineHours,
  };
  const intervalsChanged = INTERVALS.some((k) => fields[k] !== current[k]);
  return { schedule, intervalsChanged };
}

/** The refusal when an edit leaves no interval: the REST route's 400 and the push refusal say this. */
export const NO_INTERVAL_MESSAGE = intervalRule.message;

/**
 * `POST /api/service-entries`: the vehicle and the day, the table's fields
 * (shared/maintenance/service-entry-fields.ts) with the schedules it restarts after the engine
 * hours, where they always stood, and the photos and issues it names.
 */
export const serviceEntryBodySchema = z.object(
  placedAfter(
    {
      vehicleId: id,
      date: daySchema,
      ...serviceEntryTable.inputs,
      photoIds: z.array(id).max(20, "At most 20 photos").default([]),
      resolvesIssueIds: z.array(id).max(50, "At most 50 issues").default([]),
    },
    "engineHours",
    { scheduleIds: z.array(id).max(50, "At most 50 schedules").default([]) },
  ),
);
export type ServiceEntryBody = z.input<typeof serviceEntryBodySchema>;

// ------------------------------------------------------------------ sync mutations (shared/maintenance/service-mutators.ts)

/**
 * "Log service" and "Add schedule" as synced mutations: the REST bodies with the id the browser
 * chose (so the entry shows at once, offline too) and, for the entry, when it was logged on the
 * device (the optimistic copy's time; the server stamps its own).
 */
export const logServiceEntryArgs = serviceEntryBodySchema.extend({ id, createdAt: z.number().int().optional() });
export type LogServiceEntryArgs = z.input<typeof logServiceEntryArgs>;
export const createServiceScheduleArgs = serviceScheduleFields.extend({ id }).refine(hasInterval, intervalRule);
export type CreateServiceScheduleArgs = z.input<typeof createServiceScheduleArgs>;
/** "Edit" on a schedule's row: the patch with the schedule's id. */
export const updateServiceScheduleArgs = serviceSchedulePatchSchema.extend({ id });
export type UpdateServiceScheduleArgs = z.input<typeof updateServiceScheduleArgs>;
/** "Delete" on a schedule's or a service entry's row. */
export const deleteServiceArgs = z.object({ id });
export type DeleteServiceArgs = z.input<typeof deleteServiceArgs>;

/** Service dated after the day it is somewhere on Earth (UTC+14) is refused: "Not in the future". */
export const latestServiceDay = (now: number) => new Date(now + 14 * 60 * 60_000).toISOString().slice(0, 10);

/** When a service done on `day` (YYYY-MM-DD) counts from: now if it is today, else that day's start (UTC). */
export function doneAt(day: string, now: number): number {
  const start = Date.parse(`${day}T00:00:00Z`);
  return new Date(now).toISOString().startsWith(day) ? now : start;
}

/** What a service entry says about when and at what figures a service was done. */
export interface DoneService {
  day: string;
  /** ms: doneAt(day, now) */
  at: number;
  odometerMiles: number | null;
  engineHours: number | null;
}

/**
 * A schedule restarted by a service entry: counted again from the entry's day, odometer and engine
 * hours (the vehicle's current ones when the entry gives none). An entry dated before the schedule
 * was last done (history typed in late) does not move it back: null. The server's writes
 * (worker/maintenance/schedules.ts) and the browser's optimistic copy both follow this.
 */
export function restartedBasis(
  s: Pick<ScheduleBasis, "lastDoneAt" | "lastDoneOdometerMiles" | "lastDoneEngineHours">,
  entry: DoneService,
  reading: VehicleReading,
): Pick<ScheduleBasis, "lastDoneAt" | "lastDoneOdometerMiles" | "lastDoneEngineHours"> | null {
  if (new Date(s.lastDoneAt).toISOString().slice(0, 10) > entry.day) return null;
  return {
    lastDoneAt: Math.max(entry.at, s.lastDoneAt),
    lastDoneOdometerMiles: entry.odometerMiles ?? reading.odometerMiles ?? s.lastDoneOdometerMiles,
    lastDoneEngineHours: entry.engineHours ?? reading.engineHours ?? s.lastDoneEngineHours,
  };
}

// ------------------------------------------------------------------ the Service tab's forms

const notInFuture = { message: "Not in the future" };

/** "Add schedule": the body less the vehicle (the page's); last done not in the future. */
export const serviceScheduleFormSchema = serviceScheduleFields
  .omit({ vehicleId: true })
  .refine(hasInterval, intervalRule)
  .refine((b) => lastDoneAtMs(b.lastDoneAt, Date.now()) <= Date.now() + 60_000, {
    ...notInFuture,
    path: ["lastDoneAt"],
  });

/**
 * "Log service": the body less the vehicle, not dated in the future; the table's inputs checked as
 * typed (`formChecks`: the cost typed in dollars is checked and given in cents, as an expense's).
 */
export const serviceEntryFormSchema = serviceEntryBodySchema
  .omit({ vehicleId: true, photoIds: true })
  .extend(serviceEntryTable.formChecks)
  .refine((e) => e.date <= latestServiceDay(Date.now()), { ...notInFuture, path: ["date"] });

/** A schedule's lastDoneAt as given (a day, a moment, or nothing: now), in ms. */
export const lastDoneAtMs = (given: string | null | undefined, now: number) =>
  given ? (given.length === 10 ? doneAt(given, now) : Date.parse(given)) : now;

/** A schedule as the REST API answers it (times ISO 8601): the table's fields and those written out beside it. */
export interface ServiceSchedule extends ServiceScheduleTableValues {
  id: string;
  vehicleId: string;
  lastDoneAt: string;
  lastDoneOdometerMiles: number | null;
  lastDoneEngineHours: number | null;
  status: ServiceStatus;
  nextDueMiles: number | null;
  nextDueAt: string | null;
  nextDueEngineHours: number | null;
}

/** An entry as the REST API answers it: the table's fields and those written out beside it. */
export interface ServiceEntry extends ServiceEntryTableValues {
  id: string;
  vehicleId: string;
  date: string;
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
