import type { ReadonlyJSONValue, ReadTransaction, WriteTransaction } from "replicache";
import {
  JOB_PREFIX,
  canMoveJob,
  cancelJobArgs,
  completeJobArgs,
  createJobArgs,
  decodeJob,
  deleteJobArgs,
  encodeJob,
  jobAfterPatch,
  jobCompleted,
  jobFieldsOf,
  jobIdOfKey,
  jobKey,
  jobWithStatus,
  jobsReordered,
  markJobArrivedArgs,
  movedFinishedJob,
  placeCentre,
  reorderJobsArgs,
  updateJobArgs,
  type CancelJobArgs,
  type CompleteJobArgs,
  type CreateJobArgs,
  type DeleteJobArgs,
  type JobPoint,
  type JobWire,
  type MarkJobArrivedArgs,
  type ReorderJobsArgs,
  type SyncedJob,
  type UpdateJobArgs,
} from "./jobs";
import { decodePlace, placeKey, type PlaceWire } from "../places/places";

/**
 * Jobs in the browser (issue 43, docs/decisions/0052): planners create, edit, reorder and cancel
 * them on the dispatch page; the driver marks "arrived" and "done" on their phone. Optimistic and
 * offline, applied by the Worker (worker/sync/jobs-mutators.ts) through the REST routes' own checks
 * and writes (worker/jobs/job-writes.ts). The browser chooses the id; the number comes with the
 * server's copy at the next pull.
 */

async function syncedJob(tx: ReadTransaction, jobId: string): Promise<SyncedJob | undefined> {
  const wire = (await tx.get(jobKey(jobId))) as JobWire | undefined;
  return wire && decodeJob(jobId, wire);
}

/** The jobs this device holds (the synced window), decoded. */
export async function syncedJobs(tx: ReadTransaction): Promise<SyncedJob[]> {
  const out: SyncedJob[] = [];
  for await (const [key, value] of tx.scan({ prefix: JOB_PREFIX }).entries())
    out.push(decodeJob(jobIdOfKey(key), value as JobWire));
  return out;
}

/** After the last job of that vehicle's (or the unassigned) day, as the server places a job given no sequence. */
async function nextSequence(tx: ReadTransaction, vehicleId: string | null, date: string) {
  const day = (await syncedJobs(tx)).filter((j) => j.vehicleId === vehicleId && j.date === date);
  return day.reduce((max, j) => Math.max(max, j.sequence + 1), 0);
}

async function pointOf(
  tx: ReadTransaction,
  placeId: string | null | undefined,
  location: (Omit<JobPoint, "address"> & { address?: string | null }) | undefined,
): Promise<JobPoint | null> {
  if (location) return { ...location, address: location.address ?? null };
  const wire = placeId ? ((await tx.get(placeKey(placeId))) as PlaceWire | undefined) : undefined;
  // A place this device does not hold: a point at 0,0 until the server's copy replaces it.
  return wire ? { ...placeCentre(decodePlace(placeId!, wire).geometry), address: null } : null;
}

async function putJob(tx: WriteTransaction, job: SyncedJob) {
  // encodeJob leaves absent trailing places out (never undefined): JSON, as Replicache wants.
  await tx.set(jobKey(job.id), encodeJob(job) as ReadonlyJSONValue);
}

export const jobMutators = {
  async createJob(tx: WriteTransaction, input: CreateJobArgs) {
    const { id, location, ...job } = createJobArgs.parse(input);
    if (await tx.has(jobKey(id))) return;
    const point = (await pointOf(tx, job.placeId, location)) ?? { latitude: 0, longitude: 0, address: null };
    const sequence = await nextSequence(tx, job.vehicleId ?? null, job.date);
    await putJob(tx, { id, ...jobFieldsOf(job, point, { number: 0, sequence }) });
  },

  async updateJob(tx: WriteTransaction, input: UpdateJobArgs) {
    const { id, status, placeId, location, ...patch } = updateJobArgs.parse(input);
    const current = await syncedJob(tx, id);
    if (!current) return;
    let next = jobAfterPatch(current, patch);
    if (placeId || location) {
      const point = await pointOf(tx, placeId, location);
      if (point) Object.assign(next, point);
      next.placeId = location ? null : (placeId ?? null);
    }
    if (status && canMoveJob(current.status, status)) next = jobWithStatus(next, status, Date.now());
    await putJob(tx, next);
  },

  async deleteJob(tx: WriteTransaction, input: DeleteJobArgs) {
    await tx.del(jobKey(deleteJobArgs.parse(input).id));
  },

  /**
   * The jobs named, in that order, become the vehicle's (or the unassigned) day: sequence 0, 1,
   * 2, ..., the one en route following the order. Nothing moves when it would move a finished job
   * (the server refuses it too).
   */
  async reorderJobs(tx: WriteTransaction, input: ReorderJobsArgs) {
    const order = reorderJobsArgs.parse(input);
    const named: SyncedJob[] = [];
    for (const jobId of order.jobIds) {
      const current = await syncedJob(tx, jobId);
      if (current) named.push(current);
    }
    if (movedFinishedJob(named, order)) return;
    for (const job of jobsReordered(named, order, Date.now())) await putJob(tx, job);
  },

  async markJobArrived(tx: WriteTransaction, input: MarkJobArrivedArgs) {
    const { id, at } = markJobArrivedArgs.parse(input);
    const current = await syncedJob(tx, id);
    if (current && canMoveJob(current.status, "arrived")) await putJob(tx, jobWithStatus(current, "arrived", at));
  },

  async completeJob(tx: WriteTransaction, input: CompleteJobArgs) {
    const { id, at, completedByUserId, ...proof } = completeJobArgs.parse(input);
    const current = await syncedJob(tx, id);
    if (current && canMoveJob(current.status, "completed"))
      await putJob(tx, jobCompleted(current, proof, at, completedByUserId ?? null));
  },

  async cancelJob(tx: WriteTransaction, input: CancelJobArgs) {
    const { id } = cancelJobArgs.parse(input);
    const current = await syncedJob(tx, id);
    if (current && canMoveJob(current.status, "cancelled"))
      await putJob(tx, jobWithStatus(current, "cancelled", Date.now()));
  },
};
