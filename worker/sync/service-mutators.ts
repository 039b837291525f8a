import type { BatchItem } from "drizzle-orm/batch";
import {
  createServiceScheduleArgs,
  deleteServiceArgs,
  logServiceEntryArgs,
  updateServiceScheduleArgs,
} from "../../shared/maintenance/service";
import type { Db } from "../../db/client";
import { ApiError } from "../lib/errors";
import { serviceEntryWrites, serviceIdTaken, serviceScheduleWrites } from "../maintenance/service-writes";
import { entryDeleteWrites, scheduleDeleteWrites, scheduleUpdateWrites } from "../maintenance/service-changes";
import type { MutationCaller } from "./issue-mutators";
import { parseArgs, type ArgsSchema } from "./mutation-args";

type Refuse = (message: string) => never;

/** Runs a REST route's shared checks: what the route would answer with a 4xx is refused with its message. */
export const refusingApiErrors =
  (refuse: Refuse) =>
  async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) refuse(error.message);
      throw error;
    }
  };

/**
 * The authoritative side of shared/maintenance/service-mutators.ts, through the REST routes' own checks and
 * writes (worker/maintenance/service-writes.ts): what the API would answer with a 4xx is refused
 * here with its message, and nothing is written. The logger is the caller, and the times the
 * server's, whatever the browser said; an id already taken (a replay, or someone else's) is refused.
 * An edit replayed writes the same fields again (no new notification cycle: its intervals are
 * already those); a delete replayed finds nothing live and is refused, writing nothing.
 */
export function serviceServerMutators(refuse: Refuse) {
  const parse = <T>(schema: ArgsSchema<T>, input: unknown): T => parseArgs(schema, input, refuse);
  const checked = refusingApiErrors(refuse);
  return {
    async logServiceEntry(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, createdAt: _at, ...fields } = parse(logServiceEntryArgs, input);
      if (await serviceIdTaken(db, "entry", id)) refuse("a service entry with this id exists");
      const { writes } = await checked(() =>
        serviceEntryWrites(db, workspaceId, fields, { id, userId: caller.userId, now: Date.now() }),
      );
      return writes(caller.stamp);
    },
    async createServiceSchedule(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...fields } = parse(createServiceScheduleArgs, input);
      if (await serviceIdTaken(db, "schedule", id)) refuse("a service schedule with this id exists");
      const { writes } = await checked(() => serviceScheduleWrites(db, workspaceId, fields, { id, now: Date.now() }));
      return writes(caller.stamp);
    },
    async updateServiceSchedule(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id, ...patch } = parse(updateServiceScheduleArgs, input);
      const { writes } = await checked(() => scheduleUpdateWrites(db, workspaceId, id, patch, Date.now()));
      return writes(caller.stamp);
    },
    async deleteServiceSchedule(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deleteServiceArgs, input);
      const writes = await checked(() => scheduleDeleteWrites(db, workspaceId, id));
      return writes(caller.stamp);
    },
    async deleteServiceEntry(
      db: Db,
      workspaceId: string,
      input: unknown,
      caller: MutationCaller,
    ): Promise<BatchItem<"sqlite">[]> {
      const { id } = parse(deleteServiceArgs, input);
      const writes = await checked(() => entryDeleteWrites(db, workspaceId, id));
      return writes(caller.stamp);
    },
  };
}
