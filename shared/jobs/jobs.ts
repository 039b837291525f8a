import { z } from "zod";
import { isDayInRange } from "../units/instant";
import { localTimeOn } from "../units/time-zone";
import { photoIdSchema, photoIdsSchema } from "../maintenance/photos";
import type { PlaceGeometry } from "../places/places";
import { packId, setIfPresent, unpackId } from "../sync/wire";
import { JOB_TABLE_CSV_COLUMNS, optionalText, type JobTableValues, type JobTableWire, jobTable } from "./job-fields";

export { DEFAULT_JOB_DURATION_MIN, DEFAULT_JOB_RADIUS_M, MAX_JOB_DURATION_MIN, MAX_JOB_RADIUS_M } from "./job-fields";

/**
 * Jobs and routes (issue 43, DESIGN.md "Jobs and routes", docs/decisions/0052): one set of
 * schemas for the REST API, the sync mutators and the forms; the status rule; the compact synced
 * value. A job is a stop on a local day (`date`, the workspace's time zone), at a point (or a
 * place, whose centre is kept as the point), assigned to a vehicle in an order (`sequence`).
 */

// ------------------------------------------------------------------ status

export const JOB_STATUSES = ["scheduled", "en_route", "arrived", "completed", "skipped", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const jobStatusSchema = z.enum(JOB_STATUSES, {
  errorMap: () => ({ message: "Choose scheduled, en_route, arrived, completed, skipped or cancelled" }),
});
export const jobStatusLabels: Record<JobStatus, string> = {
  scheduled: "Scheduled",
  en_route: "En route",
  arrived: "Arrived",
  completed: "Completed",
  skipped: "Skipped",
  cancelled: "Cancelled",
};

/**
 * Where a job may go from each status. Detection on the server (the workspace object's fold),
 * the driver's buttons and the planner all ask `canMoveJob`, so none of them writes a transition
 * the others would not. A skipped stop can still be reached later (the driver came back to it);
 * a cancelled one is scheduled again by a planner; a completed one is final.
 */
export const JOB_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  scheduled: ["en_route", "arrived", "completed", "skipped", "cancelled"],
  en_route: ["scheduled", "arrived", "completed", "skipped", "cancelled"],
  arrived: ["completed", "skipped", "cancelled"],
  skipped: ["scheduled", "en_route", "arrived", "completed", "cancelled"],
  cancelled: ["scheduled"],
  completed: [],
};

export const canMoveJob = (from: JobStatus, to: JobStatus) => from === to || JOB_TRANSITIONS[from].includes(to);

/** Not yet reached: the statuses an ETA is kept for. */
export const isJobAhead = (s: JobStatus) => s === "scheduled" || s === "en_route";
/** Done with, one way or another: no ETA, no lateness to watch. */
export const isJobClosed = (s: JobStatus) => s === "completed" || s === "skipped" || s === "cancelled";
/**
 * Over for good (completed or cancelled): nothing happens at the stop any more and its place in
 * the day is history, so it is not reordered or moved (a skipped stop can still be reached and
 * completed; a cancelled one is scheduled again first).
 */
export const isJobFinal = (s: JobStatus) => s === "completed" || s === "cancelled";

// ------------------------------------------------------------------ visits

/** One time the vehicle was at a job's stop (ms): entering it, and leaving (null: there now, or not seen leaving). */
export interface JobVisit {
  arrivedAt: number;
  departedAt: number | null;
}

/**
 * Every time the vehicle was at the stop, in order: the job's first arrival is the first visit's,
 * its departure the last one's (a vehicle coming back re-opens the stop without losing the time
 * it was away). A job arrived at before visits were kept (or by hand, with none recorded) has
 * the one its arrival and departure make.
 */
export function jobVisits(job: Pick<JobFields, "visits" | "arrivedAt" | "departedAt">): JobVisit[] {
  if (job.visits.length) return job.visits;
  return job.arrivedAt === null ? [] : [{ arrivedAt: job.arrivedAt, departedAt: job.departedAt }];
}

/** Time at the stop over every visit (ms), up to `now` for a visit not left yet. */
export function timeOnSite(visits: readonly JobVisit[], now: number): number {
  return visits.reduce((sum, v) => sum + Math.max(0, (v.departedAt ?? Math.max(now, v.arrivedAt)) - v.arrivedAt), 0);
}

/**
 * How late a late job is, in whole minutes after its window's end (on the job's day in the
 * workspace's zone): by its first arrival once reached, by its ETA before; null when not late
 * (or nothing says by how much).
 */
export function jobLateMinutes(
  job: Pick<JobFields, "late" | "date" | "windowEnd" | "arrivedAt" | "completedAt" | "eta">,
  timeZone: string,
): number | null {
  if (!job.late || job.windowEnd === null) return null;
  const reached = job.arrivedAt ?? job.completedAt ?? job.eta;
  if (reached === null) return null;
  const over = reached - localTimeOn(job.date, job.windowEnd, timeZone);
  return over > 0 ? Math.ceil(over / 60_000) : null;
}

// ------------------------------------------------------------------ fields

const id = z.string().min(1).max(100);

export const JOB_TITLE_MAX = 200;
/**
 * A workspace's jobs are bounded (issue 51, docs/decisions/0071; answered 409 `limit_reached`):
 * its workspace object follows every assigned job of the days around today and writes their ETAs
 * back, so one workspace's day must not grow past what it can follow for every other tenant's
 * sake. A vehicle's day: a long parcel route is about 150 stops.
 */
export const MAX_JOBS_PER_VEHICLE_DAY = 200;
/** A workspace's day, every vehicle's jobs and the unassigned together (and one CSV import). */
export const MAX_JOBS_PER_DAY = 5_000;
/** A workspace's live jobs dated from yesterday (UTC) on: four full days, or months of planning ahead. */
export const MAX_UPCOMING_JOBS = 20_000;
/** Lines of one CSV import at most: a whole day of a workspace. */
export const MAX_JOBS_PER_IMPORT = MAX_JOBS_PER_DAY;

const title = z
  .string({ required_error: "Required" })
  .trim()
  .min(1, "Required")
  .max(JOB_TITLE_MAX, `Use at most ${JOB_TITLE_MAX} characters`);

/** A local day, YYYY-MM-DD, that exists (the years 2000 to 2100). */
export const jobDateSchema = z
  .string({ required_error: "Required" })
  .refine(isDayInRange, "Use a real date like 2026-12-31");

/** A local time of day, "HH:MM" (24 h). */
export const clockSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a time like 09:30");
/** Minutes since local midnight of an "HH:MM". */
export const clockMinutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
export const clockOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

const latitude = z
  .number({ required_error: "Required", invalid_type_error: "Enter a latitude" })
  .min(-90, "Between -90 and 90")
  .max(90, "Between -90 and 90");
const longitude = z
  .number({ required_error: "Required", invalid_type_error: "Enter a longitude" })
  .min(-180, "Between -180 and 180")
  .max(180, "Between -180 and 180");
const address = z.string().trim().min(1, "Required").max(300, "Use at most 300 characters");

/**
 * Where a job is: a point, with the address people read. Over REST (and in a CSV), an address
 * alone is geocoded where a geocoder is configured; the sync mutators need the point.
 */
export const jobLocationSchema = z
  .object({ latitude: latitude.optional(), longitude: longitude.optional(), address: address.nullish() })
  .superRefine((l, ctx) => {
    if ((l.latitude === undefined) !== (l.longitude === undefined))
      ctx.addIssue({
        code: "custom",
        path: [l.latitude === undefined ? "latitude" : "longitude"],
        message: "Give both latitude and longitude",
      });
    else if (l.latitude === undefined && !l.address)
      ctx.addIssue({ code: "custom", path: ["latitude"], message: "Give a point or an address" });
  });
export type JobLocationInput = z.output<typeof jobLocationSchema>;
/** A location with its point (what is stored and synced). */
export const jobPointSchema = z.object({ latitude, longitude, address: address.nullish() });
export type JobPoint = { latitude: number; longitude: number; address: string | null };

const sequence = z.number({ invalid_type_error: "Enter a number" }).int("A whole number").min(0).max(100_000);

/** A window that ends before it starts is a typing mistake (no window crosses midnight). */
function windowInOrder(w: { windowStart?: string | null; windowEnd?: string | null }, ctx: z.RefinementCtx) {
  if (w.windowStart && w.windowEnd && clockMinutes(w.windowEnd) < clockMinutes(w.windowStart))
    ctx.addIssue({ code: "custom", path: ["windowEnd"], message: "Ends after it starts" });
}

const jobFields = {
  title,
  date: jobDateSchema,
  vehicleId: id.nullish(),
  placeId: id.nullish(),
  location: jobLocationSchema.optional(),
  windowStart: clockSchema.nullish(),
  windowEnd: clockSchema.nullish(),
  sequence: sequence.optional(),
  ...jobTable.inputs,
};

/** `POST /api/jobs` (DESIGN.md): a place or a location, not both. */
export const jobBodySchema = z
  .object(jobFields)
  .superRefine((b, ctx) => {
    if (!b.placeId === !b.location)
      ctx.addIssue({ code: "custom", path: ["location"], message: "Give a placeId or a location (one of them)" });
  })
  .superRefine(windowInOrder);
export type JobBody = z.input<typeof jobBodySchema>;
export type JobInput = z.output<typeof jobBodySchema>;

/**
 * `PATCH /api/jobs/{id}`: any field; null clears the vehicle (unassigned), the window and the
 * texts. `status` moves by the transition rule (a planner cancels or schedules again). Naming a
 * place or a location replaces the other.
 */
export const jobPatchSchema = z
  .object({ ...jobFields, title: title.optional(), date: jobDateSchema.optional(), status: jobStatusSchema.optional() })
  .superRefine((b, ctx) => {
    if (b.placeId && b.location)
      ctx.addIssue({ code: "custom", path: ["location"], message: "Give a placeId or a location (one of them)" });
  })
  .superRefine(windowInOrder);
export type JobPatch = z.output<typeof jobPatchSchema>;

/** `GET /api/jobs?date=&vehicleId=&status=` (vehicleId `none`: the unassigned ones). */
export const jobQuerySchema = z.object({
  date: jobDateSchema.optional(),
  vehicleId: id.optional(),
  status: jobStatusSchema.optional(),
});
/** `GET /api/routes?date=`. */
export const routesQuerySchema = z.object({ date: jobDateSchema });

/** `POST /api/jobs/{id}/complete` (DESIGN.md): the proof of delivery, all optional. */
export const jobCompleteBodySchema = z.object({
  photoIds: photoIdsSchema.optional(),
  signaturePhotoId: photoIdSchema.nullish(),
  recipientName: optionalText(200),
  note: optionalText(2000),
});
export type JobCompleteBody = z.input<typeof jobCompleteBodySchema>;
export type JobProofInput = z.output<typeof jobCompleteBodySchema>;

// ------------------------------------------------------------------ the REST shape

export interface JobProof {
  photoIds: string[];
  signaturePhotoId: string | null;
  recipientName: string | null;
  note: string | null;
  completedByUserId: string | null;
}

/** A job as the REST API answers it (the table's fields under their own names); times are ISO 8601 instants or null. */
export interface Job extends JobTableValues {
  id: string;
  number: number;
  title: string;
  date: string;
  vehicleId: string | null;
  placeId: string | null;
  location: JobPoint;
  windowStart: string | null;
  windowEnd: string | null;
  sequence: number;
  status: JobStatus;
  enRouteAt: string | null;
  arrivedAt: string | null;
  departedAt: string | null;
  completedAt: string | null;
  /** While not arrived: when the vehicle is expected. */
  eta: string | null;
  late: boolean;
  /** Set once completed with proof (or marked done with none). */
  proof: JobProof | null;
  createdAt: string;
  updatedAt: string;
}

/** A visit as the REST API answers it: ISO 8601 instants, `departedAt` left out while the vehicle is there. */
export interface JobVisitAnswer {
  arrivedAt: string;
  departedAt?: string;
}

/** `GET /api/jobs/{id}` (DESIGN.md "A job's story"): the job, every visit in order, and how late when late. */
export interface JobStory extends Job {
  visits: JobVisitAnswer[];
  lateMinutes?: number;
}

/** `GET /api/routes?date=`: each vehicle's jobs in order, and the jobs no vehicle has yet. */
export interface JobRoutes {
  routes: { vehicleId: string; jobs: Job[] }[];
  unassigned: Job[];
}

/** `POST /api/jobs/import`. */
export interface JobImportResult {
  created: number;
  errors: { line: number; error: string }[];
}
/** The CSV import's columns: the fixed ones, then the table's flagged `csv` (shared/jobs/job-fields.ts). */
export const JOB_CSV_HEADER = [
  "title",
  "latitude",
  "longitude",
  "address",
  "date",
  "windowStart",
  "windowEnd",
  "vehicleName",
  ...JOB_TABLE_CSV_COLUMNS,
].join(",");

// ------------------------------------------------------------------ the fields a job keeps

/** A job's fields, times in ms: the D1 row's and the synced store's shape less their bookkeeping. */
export interface JobFields extends JobTableValues {
  number: number;
  title: string;
  date: string;
  vehicleId: string | null;
  placeId: string | null;
  latitude: number;
  longitude: number;
  address: string | null;
  windowStart: string | null;
  windowEnd: string | null;
  sequence: number;
  status: JobStatus;
  enRouteAt: number | null;
  arrivedAt: number | null;
  departedAt: number | null;
  completedAt: number | null;
  eta: number | null;
  late: boolean;
  /** Every visit in order (empty: not reached, or reached before visits were kept: see jobVisits). */
  visits: JobVisit[];
  proofPhotoIds: string[];
  signaturePhotoId: string | null;
  recipientName: string | null;
  proofNote: string | null;
  completedByUserId: string | null;
}

/** A new job's fields from its checked body, its point (given, the place's centre, or geocoded) and its place in the order. */
export function jobFieldsOf(
  input: Omit<JobInput, "location">,
  point: JobPoint,
  { number, sequence }: { number: number; sequence: number },
): JobFields {
  return {
    number,
    title: input.title,
    date: input.date,
    vehicleId: input.vehicleId ?? null,
    placeId: input.placeId ?? null,
    latitude: point.latitude,
    longitude: point.longitude,
    address: point.address,
    windowStart: input.windowStart ?? null,
    windowEnd: input.windowEnd ?? null,
    sequence: input.sequence ?? sequence,
    ...jobTable.given(input),
    status: "scheduled",
    enRouteAt: null,
    arrivedAt: null,
    departedAt: null,
    completedAt: null,
    eta: null,
    late: false,
    visits: [],
    proofPhotoIds: [],
    signaturePhotoId: null,
    recipientName: null,
    proofNote: null,
    completedByUserId: null,
  };
}

/**
 * The patch's plain fields applied (not its status, place or location: the caller checks and
 * resolves those). Undefined keeps a field, null clears it.
 */
export function jobAfterPatch<F extends JobFields>(
  current: F,
  patch: Omit<JobPatch, "status" | "placeId" | "location">,
): F {
  const pick = <K extends keyof typeof patch & keyof F>(k: K) =>
    (patch[k] === undefined ? current[k] : (patch[k] ?? null)) as F[K];
  return jobMovedTo(
    {
      ...current,
      title: patch.title ?? current.title,
      sequence: patch.sequence ?? current.sequence,
      windowStart: pick("windowStart"),
      windowEnd: pick("windowEnd"),
      ...jobTable.patched(current, patch),
    },
    pick("vehicleId"),
    patch.date ?? current.date,
  );
}

/**
 * A job given to another vehicle or day: the old vehicle's ETA says nothing of the new one, and
 * no vehicle is on its way to it yet (the new one's tracker says when it is: ADR 0083). A skipped
 * job is scheduled again: the vehicle that passed it is not the one (or the day) that will go.
 */
export function jobMovedTo<F extends JobFields>(job: F, vehicleId: string | null, date: string): F {
  if (job.vehicleId === vehicleId && job.date === date) return job;
  const moved = { ...job, vehicleId, date };
  if (!isJobAhead(job.status) && job.status !== "skipped") return moved;
  return { ...moved, status: "scheduled", enRouteAt: null, eta: null };
}

type OrderedJob = Pick<JobFields, "status" | "vehicleId" | "date" | "sequence" | "number"> & { id: string };

/**
 * The job over for good (completed or cancelled) whose place a new order of a vehicle's day would
 * change, or null: one named from another vehicle or day, or one no longer at its place among the
 * day's jobs named (its number may change, not what comes before it). A finished stop's place is
 * history (ADR 0083).
 */
export function movedFinishedJob<J extends OrderedJob>(
  named: readonly J[],
  order: { vehicleId: string | null; date: string; jobIds: readonly string[] },
): J | null {
  const byId = new Map(named.map((j) => [j.id, j]));
  const inOrder = order.jobIds.flatMap((id) => byId.get(id) ?? []);
  const sameDay = (j: J) => j.vehicleId === order.vehicleId && j.date === order.date;
  const moved = inOrder.find((j) => isJobFinal(j.status) && !sameDay(j));
  if (moved) return moved;
  const after = inOrder.filter(sameDay);
  const before = [...after].sort(compareJobOrder);
  return after.find((j, i) => isJobFinal(j.status) && before[i] !== j) ?? null;
}

/**
 * A vehicle's day in a new order (`jobs`: the jobs named, in it): those from elsewhere moved
 * (jobMovedTo), and, if the vehicle was on its way to one of the day's stops, the first stop not
 * reached in the new order is the one en route, from `now` (the tracker does the same on its next
 * report: domain/jobs/progress.ts), any other back to scheduled.
 */
export function jobsReordered<F extends JobFields & { id: string }>(
  jobs: readonly F[],
  order: { vehicleId: string | null; date: string },
  now: number,
): F[] {
  const driving =
    order.vehicleId !== null &&
    jobs.some((j) => j.status === "en_route" && j.vehicleId === order.vehicleId && j.date === order.date);
  const placed = jobs.map((j, sequence) => ({ ...jobMovedTo(j, order.vehicleId, order.date), sequence }));
  if (!driving) return placed;
  const heading = placed.findIndex((j) => isJobAhead(j.status));
  return placed.map((j, i) => {
    if (i === heading && j.status === "scheduled") return { ...j, status: "en_route", enRouteAt: now };
    if (i !== heading && j.status === "en_route") return { ...j, status: "scheduled", enRouteAt: null };
    return j;
  });
}

/**
 * A status change stamped with its time: the first time a job reaches a status is the one kept.
 * An arrival marked by hand where the vehicle was never seen is the job's first visit.
 */
export function jobWithStatus<F extends JobFields>(current: F, status: JobStatus, at: number): F {
  const next = { ...current, status };
  if (status === "en_route") next.enRouteAt ??= at;
  if (status === "arrived" && next.arrivedAt === null)
    Object.assign(next, { arrivedAt: at, visits: [{ arrivedAt: at, departedAt: null }] });
  if (status === "completed") next.completedAt ??= at;
  if (status === "scheduled")
    Object.assign(next, { enRouteAt: null, arrivedAt: null, departedAt: null, late: false, visits: [] });
  if (!isJobAhead(status)) next.eta = null;
  return next;
}

/** Completed with proof (the driver's "done"). */
export function jobCompleted<F extends JobFields>(
  current: F,
  proof: JobProofInput,
  at: number,
  userId: string | null,
): F {
  return {
    ...jobWithStatus(current, "completed", at),
    proofPhotoIds: proof.photoIds ?? [],
    signaturePhotoId: proof.signaturePhotoId ?? null,
    recipientName: proof.recipientName ?? null,
    proofNote: proof.note ?? null,
    completedByUserId: userId,
  };
}

// ------------------------------------------------------------------ the sync mutators' arguments

/** `createJob`: the body with the browser's id; the point is required (no geocoding offline). */
export const createJobArgs = z
  .object({ ...jobFields, location: jobPointSchema.optional(), id })
  .superRefine((b, ctx) => {
    if (!b.placeId === !b.location)
      ctx.addIssue({ code: "custom", path: ["location"], message: "Give a placeId or a location (one of them)" });
  })
  .superRefine(windowInOrder);
export type CreateJobArgs = z.input<typeof createJobArgs>;
export const updateJobArgs = z
  .object({
    ...jobFields,
    title: title.optional(),
    date: jobDateSchema.optional(),
    location: jobPointSchema.optional(),
    status: jobStatusSchema.optional(),
    id,
  })
  .superRefine(windowInOrder);
export type UpdateJobArgs = z.input<typeof updateJobArgs>;
export const deleteJobArgs = z.object({ id });
export type DeleteJobArgs = z.input<typeof deleteJobArgs>;
/** A vehicle's day in a new order (null: the unassigned jobs): the jobs named move to it, sequence 0, 1, 2, ... */
export const reorderJobsArgs = z.object({
  vehicleId: id.nullable(),
  date: jobDateSchema,
  jobIds: z.array(id).min(1).max(500),
});
export type ReorderJobsArgs = z.input<typeof reorderJobsArgs>;
/** The driver's "arrived" (`at`: ms, the device's clock). */
export const markJobArrivedArgs = z.object({ id, at: z.number().int().positive() });
export type MarkJobArrivedArgs = z.input<typeof markJobArrivedArgs>;
/** The driver's "done" with proof; `completedByUserId` is the browser's own guess for its optimistic copy (the server stamps the caller). */
export const completeJobArgs = jobCompleteBodySchema.extend({
  id,
  at: z.number().int().positive(),
  completedByUserId: z.string().max(100).nullish(),
});
export type CompleteJobArgs = z.input<typeof completeJobArgs>;
export const cancelJobArgs = z.object({ id });
export type CancelJobArgs = z.input<typeof cancelJobArgs>;

// ------------------------------------------------------------------ the synced store (docs/decisions/0052)

/** Short, because a first sync carries a key per job of the window (docs/decisions/0061). */
export const JOB_PREFIX = "j/";
/** An id as it travels: a UUID as 21 or 22 characters, any other after a "~" (as issues do, ADR 0034, 0061). */
export const packJobId = packId;
export const unpackJobId = unpackId;
export const jobKey = (jobId: string) => `${JOB_PREFIX}${packJobId(jobId)}`;
export const jobIdOfKey = (key: string) => unpackJobId(key.slice(JOB_PREFIX.length));

/** A full sync carries jobs dated from yesterday (a driver finishing late) to this many days ahead; older ones: REST. */
export const SYNCED_JOB_DAYS_AHEAD = 7;
export const SYNCED_JOB_DAYS_BEHIND = 1;

/**
 * The dates a full sync carries. The window is read without the workspace's time zone (a pull reads
 * no settings first), so it is widened by a day each side of UTC's today: every zone's yesterday
 * to a week ahead falls inside it.
 */
export function syncedJobDates(now: number): { first: string; last: string } {
  const day = (offsetDays: number) => new Date(now + offsetDays * 86_400_000).toISOString().slice(0, 10);
  return { first: day(-SYNCED_JOB_DAYS_BEHIND - 1), last: day(SYNCED_JOB_DAYS_AHEAD + 1) };
}

export type SyncedJob = JobFields & { id: string };

/**
 * A job as it travels and is stored (ADR 0013, docs/decisions/0052): a positional array, because a
 * first sync carries every job of the window and the issue allows 150 B each. The core every job
 * has (number, title, day, order, point) comes first, then what most have (vehicle, address,
 * window), absent ones as null and trailing ones left out; the rest (status and its times, proof,
 * customer, notes, non-default radius or duration, place) in a last object that a scheduled job
 * without them does not carry. Ids packed (ADR 0034), the day as days since 2026-01-01 (the jobs'
 * first year; earlier days are negative), the window as minutes after midnight, times in seconds,
 * coordinates as whole 100,000ths of a degree (5 decimals, about a metre, without the point:
 * docs/decisions/0061).
 * A job the browser made and the server has not numbered yet has number 0.
 */
export type JobWire = [
  number: number,
  title: string,
  day: number,
  sequence: number,
  /** 100,000ths of a degree */
  latitude: number,
  longitude: number,
  vehicle?: string | null,
  address?: string | null,
  windowStart?: number | null,
  windowEnd?: number | null,
  more?: JobWireMore,
];

/** The fields most jobs lack, each left out when empty or default (the table's under their `wire` keys). */
export type JobWireMore = JobTableWire & {
  /** place (packed id) */
  pl?: string;
  /** status, as its index in JOB_STATUSES (absent: scheduled) */
  s?: number;
  er?: number;
  ar?: number;
  de?: number;
  co?: number;
  e?: number;
  l?: 1;
  /** visits, when more than one (one is `ar`/`de`): seconds, [arrived, departed or null, arrived, ...] */
  vi?: (number | null)[];
  ph?: string[];
  sg?: string;
  rn?: string;
  pn?: string;
  cb?: string;
};

const JOB_COORDINATE_DECIMALS = 5;
const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
const millis = (s: number | undefined) => (s === undefined ? null : s * 1000);
/** Days on the wire count from here, so this decade's are 3 or 4 digits instead of 5. */
const JOB_DAY_EPOCH_MS = Date.UTC(2026, 0, 1);
const dayNumber = (date: string) => Math.round((Date.parse(`${date}T00:00:00Z`) - JOB_DAY_EPOCH_MS) / 86_400_000);
const dateOfDay = (day: number) => new Date(JOB_DAY_EPOCH_MS + day * 86_400_000).toISOString().slice(0, 10);
const COORDINATE_SCALE = 10 ** JOB_COORDINATE_DECIMALS;

function encodeJobMore(j: JobFields): JobWireMore {
  const w: JobWireMore = {};
  if (j.placeId) w.pl = packJobId(j.placeId);
  jobTable.encode(j, w);
  if (j.status !== "scheduled") w.s = JOB_STATUSES.indexOf(j.status);
  setIfPresent(w, "er", seconds(j.enRouteAt));
  setIfPresent(w, "ar", seconds(j.arrivedAt));
  setIfPresent(w, "de", seconds(j.departedAt));
  setIfPresent(w, "co", seconds(j.completedAt));
  setIfPresent(w, "e", seconds(j.eta));
  if (j.late) w.l = 1;
  if (j.visits.length > 1) w.vi = j.visits.flatMap((v) => [seconds(v.arrivedAt)!, seconds(v.departedAt)]);
  if (j.proofPhotoIds.length) w.ph = j.proofPhotoIds;
  setIfPresent(w, "sg", j.signaturePhotoId);
  setIfPresent(w, "rn", j.recipientName);
  setIfPresent(w, "pn", j.proofNote);
  setIfPresent(w, "cb", j.completedByUserId);
  return w;
}

export function encodeJob(j: JobFields): JobWire {
  const more = encodeJobMore(j);
  const tail: (string | number | JobWireMore | null)[] = [
    j.vehicleId ? packJobId(j.vehicleId) : null,
    j.address,
    j.windowStart === null ? null : clockMinutes(j.windowStart),
    j.windowEnd === null ? null : clockMinutes(j.windowEnd),
    Object.keys(more).length ? more : null,
  ];
  while (tail.length && tail[tail.length - 1] === null) tail.pop();
  const core = [
    j.number,
    j.title,
    dayNumber(j.date),
    j.sequence,
    Math.round(j.latitude * COORDINATE_SCALE) + 0,
    Math.round(j.longitude * COORDINATE_SCALE) + 0,
  ];
  return [...core, ...tail] as JobWire;
}

/** The visits a synced value carries: its `vi`, or the one its arrival and departure make. */
function decodeVisits(more: JobWireMore): JobVisit[] {
  const flat = more.vi;
  if (!flat) return more.ar === undefined ? [] : [{ arrivedAt: more.ar * 1000, departedAt: millis(more.de) }];
  const visits: JobVisit[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    visits.push({ arrivedAt: flat[i]! * 1000, departedAt: flat[i + 1] === null ? null : flat[i + 1]! * 1000 });
  return visits;
}

export function decodeJob(jobId: string, w: JobWire): SyncedJob {
  const [number, title, day, sequence, latitude, longitude, vehicle, address, windowStart, windowEnd, more = {}] = w;
  return {
    id: jobId,
    number,
    title,
    date: dateOfDay(day),
    vehicleId: vehicle ? unpackJobId(vehicle) : null,
    placeId: more.pl === undefined ? null : unpackJobId(more.pl),
    latitude: latitude / COORDINATE_SCALE,
    longitude: longitude / COORDINATE_SCALE,
    address: address ?? null,
    windowStart: windowStart === null || windowStart === undefined ? null : clockOf(windowStart),
    windowEnd: windowEnd === null || windowEnd === undefined ? null : clockOf(windowEnd),
    sequence,
    ...jobTable.decode(more),
    status: JOB_STATUSES[more.s ?? 0] ?? "scheduled",
    enRouteAt: millis(more.er),
    arrivedAt: millis(more.ar),
    departedAt: millis(more.de),
    completedAt: millis(more.co),
    eta: millis(more.e),
    late: more.l === 1,
    visits: decodeVisits(more),
    proofPhotoIds: more.ph ?? [],
    signaturePhotoId: more.sg ?? null,
    recipientName: more.rn ?? null,
    proofNote: more.pn ?? null,
    completedByUserId: more.cb ?? null,
  };
}

/** A vehicle's day in order: by sequence, then by number (two jobs given the same place keep their creation order). */
export const compareJobOrder = (a: Pick<JobFields, "sequence" | "number">, b: Pick<JobFields, "sequence" | "number">) =>
  a.sequence - b.sequence || a.number - b.number;

/** The point a job at a place is headed for: a circle's centre, a polygon's outer ring's mean vertex. */
export function placeCentre(geometry: PlaceGeometry): { latitude: number; longitude: number } {
  if (geometry.type === "Circle") return { latitude: geometry.center[1], longitude: geometry.center[0] };
  const ring = geometry.coordinates[0]!;
  const sum = ring.reduce((acc, [x, y]) => ({ x: acc.x + x, y: acc.y + y }), { x: 0, y: 0 });
  return { latitude: sum.y / ring.length, longitude: sum.x / ring.length };
}
