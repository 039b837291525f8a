import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { updateVehicleArgs, type Mutators } from "../../shared/mutators";
import type { Db } from "../db/client";
import { vehicles } from "../db/schema";
import { placeServerMutators } from "./places-mutators";
import { versionOf } from "./version";

/** Raised for a mutation the server refuses; push records it as processed and moves on. */
export class MutationRejected extends Error {}

/**
 * The authoritative side of each mutation in shared/mutators.ts: reads what it needs, checks that
 * everything it touches is in the session's workspace, and returns the writes (stamped with the
 * workspace version) for push to commit in one batch.
 */
type ServerMutator = (db: Db, workspaceId: string, args: unknown) => Promise<BatchItem<"sqlite">[]>;

export const serverMutators: Record<keyof Mutators, ServerMutator> = {
  async updateVehicle(db, workspaceId, input) {
    const parsed = updateVehicleArgs.safeParse(input);
    if (!parsed.success) throw new MutationRejected(parsed.error.issues[0]?.message ?? "invalid arguments");
    const { id, ...fields } = parsed.data;
    const vehicle = await db
      .select({ id: vehicles.id })
      .from(vehicles)
      .where(and(eq(vehicles.id, id), eq(vehicles.workspaceId, workspaceId), eq(vehicles.deleted, false)))
      .get();
    if (!vehicle) throw new MutationRejected("no such vehicle in this workspace");
    return [
      db
        .update(vehicles)
        .set({ ...fields, version: versionOf(workspaceId) })
        .where(and(eq(vehicles.id, id), eq(vehicles.workspaceId, workspaceId))),
    ];
  },
  ...placeServerMutators((message) => {
    throw new MutationRejected(message);
  }),
};
