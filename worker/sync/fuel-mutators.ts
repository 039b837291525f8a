import type { BatchItem } from "drizzle-orm/batch";
import { deleteFuelEntryArgs, logFuelEntryArgs, updateFuelEntryArgs } from "../../shared/costs/fuel";
import type { Db } from "../../db/client";
import { fuelDeleteWrites, fuelEntryWrites, fuelIdTaken, fuelUpdateWrites } from "../fuel/fuel-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;

/**
 * The authoritative side of shared/costs/fuel-mutators.ts, through the REST routes' own checks and
 * writes (worker/fuel/fuel-writes.ts): what the API would answer with a 4xx is refused here with
 * its message, and nothing is written. The logger is the caller; an id already taken (a replay, or
 * someone else's) is refused; a delete replayed finds nothing live and is refused.
 */
export function fuelServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);

  return {
    async logFuelEntry(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...fields } = parse(logFuelEntryArgs, input);
      if (await fuelIdTaken(db, id)) refuse("a fuel entry with this id exists");
      const { writes } = await checked(() =>
        fuelEntryWrites(db, workspaceId, fields, { id, userId: caller.userId, now: Date.now() }),
      );
      return writes(caller.stamp);
    },
    async updateFuelEntry(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...patch } = parse(updateFuelEntryArgs, input);
      const { writes } = await checked(() => fuelUpdateWrites(db, workspaceId, id, patch, Date.now()));
      return writes(caller.stamp);
    },
    async deleteFuelEntry(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deleteFuelEntryArgs, input);
      const writes = await checked(() => fuelDeleteWrites(db, workspaceId, id));
      return writes(caller.stamp);
    },
  };
}
