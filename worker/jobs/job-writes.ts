import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import {
  canMoveJob,
  jobAfterPatch,
  jobCompleted,
  jobFieldsOf,
  jobWithStatus,
  isJobFinal,
  jobsReordered,
  movedFinishedJob,
  type JobFields,
  type JobInput,
  type JobPatch,
  type JobPoint,
  type JobProofInput,
  type JobStatus,
} from "../../shared/jobs/jobs";
import { startOfDay } from "../../shared/units/time-zone";
import { inLists } from "../../db/chunk";
import type { Db } from "../../db/client";
import { jobNotifications, jobs, vehicles } from "../../db/schema";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { workspaceTimeZone } from "../lib/workspace-time-zone";
import { foreignPhotoIds } from "../photos/photo-store";
import { jobPlacePoint } from "./job-places";
import { refuseOverJobBounds, type JobMove, type JobPlace } from "./job-caps";
import type { Writes } from "../../db/writer";

/**
 * Planning, editing, reordering and completing jobs (issue 43, docs/decisions/0052): the checks
 * and the writes, one copy for the REST routes (worker/api/jobs.ts), the CSV import and the sync
 * mutators (worker/sync/jobs-mutators.ts), as fuel-writes.ts is for the fuel log. Everything is
 * checked first (another workspace's job, vehicle, place or photo: a 404 ApiError; a bad field or
 * a transition the status rule forbids: a 400 naming it), then the statements for the caller's
 * one batch are returned, stamped with its version.
 */
export type JobWrites = Writes;
export type JobRow = typeof jobs.$inferSelect;
/** Who writes and when (ms): the times a status is stamped with, the proof's author, the push's sender. */
export interface JobWriter {
  userId: string | null;
  now: number;
}

/** #1, #2, ... per workspace, computed inside the INSERT (one transaction), as issues are numbered. */
const nextNumber = (workspaceId: string) =>
  sql<number>`(SELECT COALESCE(MAX("number"), 0) + 1 FROM "jobs" WHERE "workspace_id" = ${workspaceId})`;

/** After the last live job of that vehicle's (or the unassigned) day, computed inside the INSERT too. */
const nextSequence = (workspaceId: string, vehicleId: string | null, date: string) =>
  sql<number>`(SELECT COALESCE(MAX("sequence"), -1) + 1 FROM "jobs" WHERE "workspace_id" = ${workspaceId}
    AND "date" = ${date} AND "vehicle_id" IS ${vehicleId} AND "deleted" = 0)`;

const scoped = (workspaceId: string, jobId: string) => and(eq(jobs.id, jobId), eq(jobs.workspaceId, workspaceId));

/** The workspace's live job, or a 404. */
export async function liveJob(db: Db, workspaceId: string, jobId: string): Promise<JobRow> {
  const row = await db
    .select()
    .from(jobs)
    .where(and(scoped(workspaceId, jobId), eq(jobs.deleted, false)))
    .get();
  if (!row) throw notFound("No such job in this workspace");
  return row;
}

/** Whether a job has this id already, in any workspace (a browser's id replayed, or taken). */
export async function jobIdTaken(db: Db, jobId: string) {
  return (await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, jobId)).get()) !== undefined;
}

/** The workspace's live vehicle, or a 404 (a job is never given to another workspace's vehicle). */
export async function jobVehicle(db: Db, workspaceId: string, vehicleId: string) {
  const row = await db
    .select({ id: vehicles.id, name: vehicles.name })
    .from(vehicles)
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
    .get();
  if (!row) throw notFound("No such vehicle in this workspace");
  return row;
}

/** The push to the driver of the vehicle a job was given to (worker/jobs/job-notifications.ts). */
export function assignmentNotice(db: Db, workspaceId: string, jobId: string, vehicleId: string, writer: JobWriter) {
  return db.insert(jobNotifications).values({
    id: crypto.randomUUID(),
    workspaceId,
    jobId,
    vehicleId,
    senderUserId: writer.userId,
    createdAt: writer.now,
  });
}

/**
 * A new job's statements. `point` is already resolved (given, geocoded, or the place's centre by
 * jobPlacePoint); the vehicle is checked here. Its number and, when not given, its place at the
 * end of its vehicle's day are computed in the INSERT.
 */
export async function jobCreateWrites(
  db: Db,
  workspaceId: string,
  input: Omit<JobInput, "location">,
  point: JobPoint,
  { id, writer }: { id: string; writer: JobWriter },
): Promise<JobWrites> {
  if (input.vehicleId) await jobVehicle(db, workspaceId, input.vehicleId);
  const to = { vehicleId: input.vehicleId ?? null, date: input.date };
  await refuseOverJobBounds(db, workspaceId, [{ from: null, to }], writer.now);
  return newJobWrites(db, workspaceId, input, point, { id, writer });
}

/** The statements of a job whose references were checked (the import checks its vehicles once for all lines). */
export function newJobWrites(
  db: Db,
  workspaceId: string,
  input: Omit<JobInput, "location">,
  point: JobPoint,
  { id, writer }: { id: string; writer: JobWriter },
): JobWrites {
  const fields = jobFieldsOf(input, point, { number: 0, sequence: 0 });
  const vehicleId = fields.vehicleId;
  return (stamp, live) => [
    live.insert(jobs).values({
      id,
      workspaceId,
      ...fields,
      number: nextNumber(workspaceId),
      sequence: input.sequence ?? nextSequence(workspaceId, vehicleId, fields.date),
      createdByUserId: writer.userId,
      assignedAt: vehicleId ? writer.now : null,
      version: stamp,
      createdAt: writer.now,
      updatedAt: writer.now,
    }),
    ...(vehicleId ? [assignmentNotice(db, workspaceId, id, vehicleId, writer)] : []),
  ];
}

/** A job changed from `current` to `after`: where it was and where it goes (job-caps.ts). */
const moveOf = (current: JobPlace, after: JobPlace): JobMove => ({
  from: { vehicleId: current.vehicleId, date: current.date },
  to: { vehicleId: after.vehicleId, date: after.date },
});

function refuseTransition(from: JobStatus, to: JobStatus) {
  if (!canMoveJob(from, to))
    throw badRequest(`status: a ${from} job cannot become ${to}`, { status: [`A ${from} job cannot become ${to}`] });
}

/** The fields a write sets on an existing job (all of JobFields but its number, which never changes). */
function jobSet(fields: JobFields, stamp: SQL<number>, now: number) {
  const { number: _number, ...rest } = fields;
  return { ...rest, version: stamp, updatedAt: now };
}

/** A job changed in place: the fields, a vehicle given to it (pushed to its driver), a new status. */
function changeWrites(db: Db, workspaceId: string, current: JobRow, after: JobFields, writer: JobWriter): JobWrites {
  const newVehicle = after.vehicleId && after.vehicleId !== current.vehicleId ? after.vehicleId : null;
  return (stamp, live) => [
    live
      .update(jobs)
      .set({ ...jobSet(after, stamp, writer.now), ...(newVehicle && { assignedAt: writer.now }) })
      .where(scoped(workspaceId, current.id)),
    ...(newVehicle ? [assignmentNotice(db, workspaceId, current.id, newVehicle, writer)] : []),
  ];
}

/**
 * A job edited: the fields a patch names change; a vehicle, place or location named is checked;
 * a status goes by the transition rule, stamped with the writer's time.
 */
export async function jobUpdateWrites(
  db: Db,
  workspaceId: string,
  jobId: string,
  patch: JobPatch,
  point: JobPoint | null,
  writer: JobWriter,
): Promise<{ row: JobRow; writes: JobWrites }> {
  const current = await liveJob(db, workspaceId, jobId);
  const { status, placeId, location: _location, ...plain } = patch;
  if (plain.vehicleId) await jobVehicle(db, workspaceId, plain.vehicleId);
  if (status) refuseTransition(current.status, status);
  let after: JobRow = jobAfterPatch(current, plain);
  if (placeId) after = { ...after, ...(await jobPlacePoint(db, workspaceId, placeId)), placeId };
  else if (point) after = { ...after, ...point, placeId: null };
  if (status) after = jobWithStatus(after, status, writer.now);
  const moved =
    after.sequence !== current.sequence || after.vehicleId !== current.vehicleId || after.date !== current.date;
  if (moved && isJobFinal(current.status) && isJobFinal(after.status)) throw finishedJobKept(current);
  await refuseOverJobBounds(db, workspaceId, [moveOf(current, after)], writer.now);
  return { row: after, writes: changeWrites(db, workspaceId, current, after, writer) };
}

/**
 * A completed or cancelled job keeps its place in its day (shared/jobs/jobs.ts movedFinishedJob,
 * ADR 0083): answered 409 `job_finished`, naming it. A cancelled one is scheduled again first.
 */
const finishedJobKept = (job: Pick<JobRow, "number" | "status">) =>
  new ApiError(
    409,
    "job_finished",
    `Job #${job.number} is ${job.status}: it keeps its place in the day${job.status === "cancelled" ? " (schedule it again to move it)" : ""}`,
  );

/** A job deleted: a tombstone, so the pull tells every device to drop it. */
export async function jobDeleteWrites(db: Db, workspaceId: string, jobId: string, now: number): Promise<JobWrites> {
  await liveJob(db, workspaceId, jobId);
  return (stamp, live) => [
    live.update(jobs).set({ deleted: true, version: stamp, updatedAt: now }).where(scoped(workspaceId, jobId)),
  ];
}

/**
 * A vehicle's day (or the unassigned jobs) in a new order: the jobs named move to it and to that
 * date, sequence 0, 1, 2, ... in the order given, the one en route following it (jobsReordered).
 * Jobs of that day not named keep their place after them. Every job must be the workspace's and
 * live; a completed or cancelled one keeps its place (409 `job_finished`).
 */
export async function jobReorderWrites(
  db: Db,
  workspaceId: string,
  order: { vehicleId: string | null; date: string; jobIds: string[] },
  writer: JobWriter,
): Promise<JobWrites> {
  if (new Set(order.jobIds).size !== order.jobIds.length)
    throw badRequest("jobIds: each job once", { jobIds: ["Name each job once"] });
  if (order.vehicleId) await jobVehicle(db, workspaceId, order.vehicleId);
  const rows: JobRow[] = [];
  for (const part of inLists(order.jobIds))
    rows.push(
      ...(await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.workspaceId, workspaceId), inArray(jobs.id, part), eq(jobs.deleted, false)))
        .all()),
    );
  if (rows.length !== order.jobIds.length) throw notFound("No such job in this workspace");
  const finished = movedFinishedJob(rows, order);
  if (finished) throw finishedJobKept(finished);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const to = { vehicleId: order.vehicleId, date: order.date };
  await refuseOverJobBounds(
    db,
    workspaceId,
    rows.map((r) => moveOf(r, to)),
    writer.now,
  );
  const inOrder = order.jobIds.map((jobId) => byId.get(jobId)!);
  const changes = jobsReordered(inOrder, order, writer.now).map((after, i) =>
    changeWrites(db, workspaceId, inOrder[i]!, after, writer),
  );
  return (stamp, live) => changes.flatMap((w) => w(stamp, live));
}

/**
 * The time a driver's phone stamped "arrived" or "done" with (issue 51, finding 6, docs/decisions/0071):
 * kept when it lies between the start of the job's day (in the workspace's zone) or the time it was
 * assigned, whichever is later, and the time the server received it. Out of bounds, the receiving
 * time replaces it and the phone's time is recorded on the row (`device_time_refused`) and logged:
 * a phone with a wrong clock, or a hand-made push, cannot make a job arrive in 1970 (on time for
 * the report) or complete in the past (ending its customer link at once). `at` null: the server's own time.
 */
async function deviceStamp(db: Db, current: JobRow, at: number | null, now: number) {
  if (at === null) return { at: now, refused: current.deviceTimeRefused };
  const timeZone = await workspaceTimeZone(db, current.workspaceId);
  const earliest = Math.max(startOfDay(current.date, timeZone), current.assignedAt ?? current.createdAt);
  if (at >= earliest && at <= now) return { at, refused: current.deviceTimeRefused };
  console.warn(`jobs: job ${current.id} stamped ${at} by a device, outside ${earliest}..${now}: kept ${now}`);
  return { at: now, refused: at };
}

/** The driver's "arrived" (or a planner's): by the status rule, stamped with the phone's time within bounds. */
export async function jobArrivedWrites(
  db: Db,
  workspaceId: string,
  jobId: string,
  at: number,
  writer: JobWriter,
): Promise<{ row: JobRow; writes: JobWrites }> {
  const current = await liveJob(db, workspaceId, jobId);
  refuseTransition(current.status, "arrived");
  const stamp = await deviceStamp(db, current, at, writer.now);
  const after = { ...jobWithStatus(current, "arrived", stamp.at), deviceTimeRefused: stamp.refused };
  return { row: after, writes: changeWrites(db, workspaceId, current, after, writer) };
}

/**
 * The driver's "done" with proof: photos and the signature must be the workspace's. `at`: the
 * phone's time (bounded as an arrival's), null for the server's (the REST route).
 */
export async function jobCompleteWrites(
  db: Db,
  workspaceId: string,
  jobId: string,
  proof: JobProofInput,
  { at, writer }: { at: number | null; writer: JobWriter },
): Promise<{ row: JobRow; writes: JobWrites }> {
  const current = await liveJob(db, workspaceId, jobId);
  refuseTransition(current.status, "completed");
  const photoIds = [...(proof.photoIds ?? []), ...(proof.signaturePhotoId ? [proof.signaturePhotoId] : [])];
  if ((await foreignPhotoIds(db, workspaceId, photoIds)).length) throw notFound("No such photo in this workspace");
  const stamp = await deviceStamp(db, current, at, writer.now);
  const after = { ...jobCompleted(current, proof, stamp.at, writer.userId), deviceTimeRefused: stamp.refused };
  return { row: after, writes: changeWrites(db, workspaceId, current, after, writer) };
}

/** A job a plan places: given to a vehicle (its day unchanged), at a sequence. */
export interface JobPlacement {
  row: JobRow;
  vehicleId: string;
  sequence: number;
}

/**
 * A day's plan applied (issue 54, docs/decisions/0076): each job given to its vehicle at its place
 * in the order, within the job bounds, as one set of statements for one versioned batch.
 * Each new vehicle's driver is pushed the job as a hand assignment would.
 */
export async function jobPlacementWrites(
  db: Db,
  workspaceId: string,
  placements: readonly JobPlacement[],
  writer: JobWriter,
): Promise<JobWrites> {
  const moves = placements.map((p) => moveOf(p.row, { vehicleId: p.vehicleId, date: p.row.date }));
  await refuseOverJobBounds(db, workspaceId, moves, writer.now);
  const changes = placements
    .filter((p) => p.row.vehicleId !== p.vehicleId || p.row.sequence !== p.sequence)
    .map((p) =>
      changeWrites(db, workspaceId, p.row, { ...p.row, vehicleId: p.vehicleId, sequence: p.sequence }, writer),
    );
  return (stamp, live) => changes.flatMap((w) => w(stamp, live));
}
