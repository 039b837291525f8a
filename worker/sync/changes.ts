import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../db/client";
import { replicacheClientGroups, replicacheClients, telemetry, vehicleEvents, vehicles, workspaces } from "../db/schema";

/**
 * Everything of a workspace stamped after `since`, the part of a pull answer that is the same for
 * every client at that cookie: its rows, and the last mutation ids of ALL its clients changed
 * since (each pull keeps its own group's). D1 runs a batch as one transaction: a consistent
 * snapshot at `version`.
 */
export async function readChanges(db: Db, workspaceId: string, since: number) {
  const [ws, vehicleRows, telemetryRows, eventRows, clientRows] = await db.batch([
    db.select({ version: workspaces.version }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db.select().from(vehicles).where(and(eq(vehicles.workspaceId, workspaceId), gt(vehicles.version, since))),
    db.select().from(telemetry).where(and(eq(telemetry.workspaceId, workspaceId), gt(telemetry.version, since))),
    db.select().from(vehicleEvents).where(and(eq(vehicleEvents.workspaceId, workspaceId), gt(vehicleEvents.version, since))),
    db
      .select({ id: replicacheClients.id, clientGroupId: replicacheClients.clientGroupId, lastMutationId: replicacheClients.lastMutationId })
      .from(replicacheClients)
      .innerJoin(replicacheClientGroups, eq(replicacheClientGroups.id, replicacheClients.clientGroupId))
      .where(and(eq(replicacheClientGroups.workspaceId, workspaceId), gt(replicacheClients.version, since))),
  ]);
  return { version: ws[0]?.version ?? 0, vehicleRows, telemetryRows, eventRows, clientRows };
}
export type Changes = Awaited<ReturnType<typeof readChanges>>;

/** Where a pull gets the shared part of an incremental answer. */
export type ChangeSource = (workspaceId: string, since: number) => Promise<Changes>;

/**
 * The shared part of incremental answers, read once per write and cookie instead of once per
 * client (docs/decisions/0013). Lives in the workspace's room, which hears `poke()` after every
 * committed write: a poke starts a new epoch and drops what was read before it, so an answer is
 * only reused by pulls that arrive before the next write is announced. A client that gets a
 * snapshot older than a write it raced with is poked for that write and pulls again.
 *
 * Keyed by workspace and cookie, so a room can never hand one workspace's rows to another's pull.
 */
export class SharedChanges {
  static readonly MAX_ENTRIES = 32;
  #epoch = 0;
  readonly #memo = new Map<string, { epoch: number; changes: Promise<Changes> }>();

  constructor(private readonly read: ChangeSource) {}

  /** A write in the workspace committed: nothing read before now may be reused. */
  invalidate() {
    this.#epoch++;
    this.#memo.clear();
  }

  since(workspaceId: string, since: number): Promise<Changes> {
    const key = `${workspaceId}\n${since}`;
    const hit = this.#memo.get(key);
    if (hit && hit.epoch === this.#epoch) return hit.changes;
    const epoch = this.#epoch;
    const changes = this.read(workspaceId, since);
    if (this.#memo.size >= SharedChanges.MAX_ENTRIES) this.#memo.delete(this.#memo.keys().next().value!);
    this.#memo.set(key, { epoch, changes });
    // A failed read is not kept: the next pull reads again.
    changes.catch(() => {
      if (this.#memo.get(key)?.changes === changes) this.#memo.delete(key);
    });
    return changes;
  }
}
