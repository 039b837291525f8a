import { and, eq, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import { mutationNames } from "../../shared/mutators";
import type { Mutation, pushRequestSchema } from "../../shared/sync-protocol";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { replicacheClients } from "../db/schema";
import { MutationRejected, serverMutators } from "./mutators";
import { ensureClientGroup } from "./pull";
import { bumpVersion, versionOf } from "./version";

type PushRequest = z.infer<typeof pushRequestSchema>;

/**
 * Replicache push, one mutation at a time (docs/decisions/0003-sync.md). D1 has no interactive
 * transactions, so each mutation does its reads first and then commits ONE batch: the version
 * bump, its writes, and the client's new last mutation id, behind a guard that aborts the batch
 * if another request processed this client's mutations in the meantime.
 * Returns whether anything was written (then the caller pokes the workspace).
 */
export async function push(db: Db, session: SessionInfo & { workspaceId: string }, req: PushRequest): Promise<boolean> {
  const workspaceId = session.workspaceId;
  await ensureClientGroup(db, session, req.clientGroupID);
  let wrote = false;

  for (const mutation of req.mutations) {
    // 1. Where is this client? (A client unknown to the server has processed nothing.)
    const client = await db.select().from(replicacheClients).where(eq(replicacheClients.id, mutation.clientID)).get();
    if (client && client.clientGroupId !== req.clientGroupID) break; // not this group's client: ignore the rest
    const lastMutationId = client?.lastMutationId ?? 0;

    // 2. Already processed (a replay or a duplicate request): skip it.
    if (mutation.id <= lastMutationId) continue;
    // 3. From the future (an earlier one is missing): stop; the client resends in order.
    if (mutation.id > lastMutationId + 1) break;

    // 4. Run it; a refused mutation still counts as processed, with no writes.
    const writes = await runMutation(db, workspaceId, mutation);

    // 5. Commit its writes and the new last mutation id together.
    try {
      await db.batch([
        guardLastMutationId(db, mutation.clientID, lastMutationId),
        bumpVersion(db, workspaceId),
        ...writes,
        db
          .insert(replicacheClients)
          .values({ id: mutation.clientID, clientGroupId: req.clientGroupID, lastMutationId: mutation.id, version: versionOf(workspaceId) })
          .onConflictDoUpdate({
            target: replicacheClients.id,
            set: { lastMutationId: mutation.id, version: versionOf(workspaceId) },
          }),
      ]);
      wrote = true;
    } catch (error) {
      if (String(error).includes("UNIQUE constraint failed: replicache_clients.id")) break; // lost a race: client retries
      throw error;
    }
  }
  return wrote;
}

async function runMutation(db: Db, workspaceId: string, mutation: Mutation): Promise<BatchItem<"sqlite">[]> {
  const name = mutation.name as (typeof mutationNames)[number];
  if (!mutationNames.includes(name)) {
    console.warn(`push: unknown mutation ${mutation.name}`);
    return [];
  }
  try {
    return await serverMutators[name](db, workspaceId, mutation.args);
  } catch (error) {
    if (error instanceof MutationRejected) {
      console.warn(`push: ${mutation.name} #${mutation.id} refused: ${error.message}`);
      return [];
    }
    throw error;
  }
}

/**
 * Aborts the batch unless the client's last mutation id is still `expected`: when it is not, this
 * re-inserts the existing row, and the primary-key violation rolls the whole batch back.
 */
function guardLastMutationId(db: Db, clientId: string, expected: number) {
  return db.insert(replicacheClients).select(
    db
      .select({
        id: replicacheClients.id,
        clientGroupId: replicacheClients.clientGroupId,
        lastMutationId: replicacheClients.lastMutationId,
        version: replicacheClients.version,
      })
      .from(replicacheClients)
      .where(and(eq(replicacheClients.id, clientId), ne(replicacheClients.lastMutationId, expected))),
  );
}
