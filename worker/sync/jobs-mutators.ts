import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import type { MutationCaller } from "./issue-mutators";

type Refuse = (message: string) => never;
type JobServerMutator = (
  db: Db,
  workspaceId: string,
  input: unknown,
  caller: MutationCaller,
) => Promise<BatchItem<"sqlite">[]>;

/**
 * The authoritative side of shared/jobs-mutators.ts. Until the writes land (worker/jobs), every
 * job mutation is refused, so a browser's optimistic copy is dropped at the next pull.
 */
export function jobServerMutators(
  refuse: Refuse,
): Record<
  "createJob" | "updateJob" | "deleteJob" | "reorderJobs" | "markJobArrived" | "completeJob" | "cancelJob",
  JobServerMutator
> {
  const notYet: JobServerMutator = async () => refuse("jobs are not synced yet");
  return {
    createJob: notYet,
    updateJob: notYet,
    deleteJob: notYet,
    reorderJobs: notYet,
    markJobArrived: notYet,
    completeJob: notYet,
    cancelJob: notYet,
  };
}
