import type { BatchItem } from "drizzle-orm/batch";
import { addRenewalArgs, deleteRenewalArgs, renewRenewalArgs } from "../../shared/costs/renewals";
import type { Db } from "../../db/client";
import { renewalDeleteWrites, renewalIdTaken, renewalWrites, renewWrites } from "../costs/renewal-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;

/**
 * The authoritative side of shared/costs/renewal-mutators.ts, through the REST routes' own checks and
 * writes (worker/costs/renewal-writes.ts): a 4xx of the API is a refusal here, nothing written.
 */
export function renewalServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);

  return {
    async addRenewal(db: Db, workspaceId: string, input: unknown, caller: MutationCaller) {
      const { id, ...fields } = parse(addRenewalArgs, input);
      if (await renewalIdTaken(db, id)) refuse("a renewal with this id exists");
      const { writes } = await checked(() =>
        renewalWrites(db, workspaceId, fields, { id, userId: caller.userId, now: Date.now() }),
      );
      return writes(caller.stamp) as BatchItem<"sqlite">[];
    },
    async renewRenewal(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...renew } = parse(renewRenewalArgs, input);
      const { writes } = await checked(() => renewWrites(db, workspaceId, id, renew, Date.now()));
      return writes(caller.stamp);
    },
    async deleteRenewal(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deleteRenewalArgs, input);
      const writes = await checked(() => renewalDeleteWrites(db, workspaceId, id));
      return writes(caller.stamp);
    },
  };
}
