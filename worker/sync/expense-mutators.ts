import type { BatchItem } from "drizzle-orm/batch";
import { addExpenseArgs, deleteExpenseArgs, updateExpenseArgs } from "../../shared/costs/expenses";
import type { Db } from "../../db/client";
import { expenseDeleteWrites, expenseIdTaken, expenseUpdateWrites, expenseWrites } from "../costs/expense-writes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";
import { refusingApiErrors } from "./service-mutators";

type Refuse = (message: string) => never;

/**
 * The authoritative side of shared/costs/expense-mutators.ts, through the REST routes' own checks and
 * writes (worker/costs/expense-writes.ts): what the API would answer with a 4xx is refused here
 * with its message, and nothing is written. An id already taken (a replay, or someone else's) is
 * refused; a delete replayed finds nothing live and is refused.
 */
export function expenseServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);

  return {
    async addExpense(db: Db, workspaceId: string, input: unknown, caller: MutationCaller) {
      const { id, ...fields } = parse(addExpenseArgs, input);
      if (await expenseIdTaken(db, id)) refuse("an expense with this id exists");
      const { writes } = await checked(() =>
        expenseWrites(db, workspaceId, fields, { id, userId: caller.userId, now: Date.now() }),
      );
      return writes(caller.stamp) as BatchItem<"sqlite">[];
    },
    async updateExpense(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...patch } = parse(updateExpenseArgs, input);
      const { writes } = await checked(() => expenseUpdateWrites(db, workspaceId, id, patch));
      return writes(caller.stamp);
    },
    async deleteExpense(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deleteExpenseArgs, input);
      const writes = await checked(() => expenseDeleteWrites(db, workspaceId, id));
      return writes(caller.stamp);
    },
  };
}
