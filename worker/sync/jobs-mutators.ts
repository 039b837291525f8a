import type { BatchItem } from "drizzle-orm/batch";
import {
  cancelJobArgs,
  completeJobArgs,
  createJobArgs,
  deleteJobArgs,
  markJobArrivedArgs,
  reorderJobsArgs,
  updateJobArgs,
} from "../../shared/jobs/jobs";
import type { Db } from "../../db/client";
import { resolveJobPoint } from "../jobs/job-places";
import {
  jobArrivedWrites,
  jobCompleteWrites,
  jobCreateWrites,
  jobDeleteWrites,
  jobIdTaken,
  jobReorderWrites,
  jobUpdateWrites,
  type JobWrites,
} from "../jobs/job-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;
type JobServerMutator = (
  db: Db,
  workspaceId: string,
  input: unknown,
  caller: MutationCaller,
) => Promise<BatchItem<"sqlite">[]>;
export type JobMutationName =
  "createJob" | "updateJob" | "deleteJob" | "reorderJobs" | "markJobArrived" | "completeJob" | "cancelJob";
/** The mutations that change jobs: a push holding one tells the workspace's object (its job watch reloads). */
export const JOB_MUTATIONS: ReadonlySet<string> = new Set<JobMutationName>([
  "createJob",
  "updateJob",
  "deleteJob",
  "reorderJobs",
  "markJobArrived",
  "completeJob",
  "cancelJob",
]);

/**
 * The authoritative side of shared/jobs/jobs-mutators.ts, through the REST routes' own checks and
 * writes (worker/jobs/job-writes.ts): what the API would answer with a 4xx is refused here with its
 * message, and nothing is written. The writer is the caller and the time the server's (a driver's
 * "arrived" keeps the phone's time when it is not in the future: an arrival marked offline is
 * stamped when it happened). An id already taken (a replay, or someone else's) is refused.
 */
export function jobServerMutators(refuse: Refuse): Record<JobMutationName, JobServerMutator> {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);
  const stamped = (writes: JobWrites, caller: MutationCaller) => writes(caller.stamp, caller.live);
  const writer = (caller: MutationCaller) => ({ userId: caller.userId, now: Date.now() });

  return {
    async createJob(db, workspaceId, input, caller) {
      const { id, location, ...job } = parse(createJobArgs, input);
      if (await jobIdTaken(db, id)) refuse("a job with this id exists");
      const writes = await checked(async () => {
        const point = await resolveJobPoint(db, "", workspaceId, { placeId: job.placeId, location });
        return jobCreateWrites(db, workspaceId, job, point, { id, writer: writer(caller) });
      });
      return stamped(writes, caller);
    },
    async updateJob(db, workspaceId, input, caller) {
      const { id, ...patch } = parse(updateJobArgs, input);
      const point = patch.location ? { ...patch.location, address: patch.location.address ?? null } : null;
      const { writes } = await checked(() => jobUpdateWrites(db, workspaceId, id, patch, point, writer(caller)));
      return stamped(writes, caller);
    },
    async deleteJob(db, workspaceId, input, caller) {
      const { id } = parse(deleteJobArgs, input);
      return stamped(await checked(() => jobDeleteWrites(db, workspaceId, id, Date.now())), caller);
    },
    async reorderJobs(db, workspaceId, input, caller) {
      const order = parse(reorderJobsArgs, input);
      return stamped(await checked(() => jobReorderWrites(db, workspaceId, order, writer(caller))), caller);
    },
    async markJobArrived(db, workspaceId, input, caller) {
      const { id, at } = parse(markJobArrivedArgs, input);
      const { writes } = await checked(() => jobArrivedWrites(db, workspaceId, id, at, writer(caller)));
      return stamped(writes, caller);
    },
    async completeJob(db, workspaceId, input, caller) {
      const { id, at, completedByUserId: _theirs, ...proof } = parse(completeJobArgs, input);
      const w = writer(caller);
      const { writes } = await checked(() => jobCompleteWrites(db, workspaceId, id, proof, { at, writer: w }));
      return stamped(writes, caller);
    },
    async cancelJob(db, workspaceId, input, caller) {
      const { id } = parse(cancelJobArgs, input);
      const cancel = { status: "cancelled" as const };
      const { writes } = await checked(() => jobUpdateWrites(db, workspaceId, id, cancel, null, writer(caller)));
      return stamped(writes, caller);
    },
  };
}
