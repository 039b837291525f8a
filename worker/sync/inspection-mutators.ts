import type { BatchItem } from "drizzle-orm/batch";
import { submitInspectionArgs } from "../../shared/maintenance/inspections";
import type { Db } from "../../db/client";
import { inspectionWrites } from "../maintenance/inspection-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;

/**
 * The authoritative side of shared/maintenance/inspection-mutators.ts, through the REST route's own checks and
 * writes (worker/maintenance/inspection-writes.ts): the inspector is the caller; the time the
 * device says it was done is kept when it is within the last 30 days, as over REST. A resend of a
 * stored inspection writes nothing.
 */
export function inspectionServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);
  return {
    async submitInspection(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const submission = parse(submitInspectionArgs, input);
      const made = await checked(() =>
        inspectionWrites(db, workspaceId, submission, { userId: caller.userId, now: Date.now() }),
      );
      if (made.existing) refuse("this inspection exists");
      return made.writes(caller.stamp);
    },
  };
}
