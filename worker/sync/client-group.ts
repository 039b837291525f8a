import { and, between, eq, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { replicacheClientGroups, replicacheClients } from "../../db/schema";
import { forbidden } from "../lib/errors";

/** Whose sync client it is: a user in a workspace (an HTTP session, or a room's socket). */
export interface SyncCaller {
  userId: string;
  workspaceId: string;
  /** The caller's role when known (HTTP pulls): without it, rules' webhook URLs go only over HTTP (issue 34). */
  role?: string | null;
}

/** A group's last sync time is written at most this often (retention only needs days). */
export const TOUCH_INTERVAL_MS = 3_600_000;

/**
 * A client group belongs to one user in one workspace. The first request naming a new id claims it
 * atomically (insert, or nothing if it exists, then read who owns it), so two sessions presenting
 * the same brand-new id at once cannot both be served; reusing an id from another session (another
 * user, or the same user in another workspace) is refused, so no state can leak across tenants.
 * The same batch records the group's last sync time when it is an hour old (docs/decisions/0035).
 * Returns whether the group's clients may rebase their mutation ids (see push), and whether this
 * claim created the group (`undoClaim` takes it back when it should not have).
 */
export async function claimClientGroup(db: Db, session: SyncCaller, clientGroupId: string, now = Date.now()) {
  const [created, , owner] = await db.batch([
    db
      .insert(replicacheClientGroups)
      .values({ id: clientGroupId, userId: session.userId, workspaceId: session.workspaceId, lastPulledAt: now })
      .onConflictDoNothing(),
    touchStatement(db, clientGroupId, now),
    db.select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, clientGroupId)),
  ]);
  const group = owner[0];
  if (!group || group.userId !== session.userId || group.workspaceId !== session.workspaceId) {
    throw forbidden("This sync client belongs to another session");
  }
  rememberOwner(clientGroupId, group, now);
  return { rebase: group.rebase, created: changesOf(created) > 0 };
}

/**
 * A group this request created that the client says it had before (its cookie was issued to it, or
 * its client has processed mutations): retention deleted it (docs/decisions/0035). The row goes
 * again, and the caller answers ClientStateNotFound: Replicache drops that state and starts anew.
 */
export async function undoClaim(db: Db, clientGroupId: string): Promise<void> {
  knownOwners.delete(clientGroupId);
  await db.delete(replicacheClientGroups).where(eq(replicacheClientGroups.id, clientGroupId));
}

/**
 * The owner check alone, for pulls (which do not need `rebase`): a group whose owner this isolate
 * confirmed in D1 within the hour skips the round trip, so a pull after a poke costs no D1 work of
 * its own (docs/decisions/0013). Once an hour per group and isolate the claim runs again: it keeps
 * the group's last sync time (a write only when D1's is an hour old) and finds a group retention
 * deleted (a group synced within the hour is never idle). An owner never changes once written,
 * and only owners read back from D1 after a claim are remembered, so the memory can refuse more
 * often than D1 never less. Answers whether this call created the group.
 */
export async function checkClientGroupOwner(
  db: Db,
  session: SyncCaller,
  clientGroupId: string,
  now = Date.now(),
): Promise<{ created: boolean }> {
  const known = knownOwners.get(clientGroupId);
  if (!known || now - known.touchedAt >= TOUCH_INTERVAL_MS)
    return { created: (await claimClientGroup(db, session, clientGroupId, now)).created };
  if (known.userId !== session.userId || known.workspaceId !== session.workspaceId) {
    throw forbidden("This sync client belongs to another session");
  }
  return { created: false };
}

/** Retention deleted idle groups: this isolate claims every group again before serving it. */
export function forgetKnownOwners(): void {
  knownOwners.clear();
}

/** Records the group's last sync time, writing only when the stored one is an hour old. */
function touchStatement(db: Db, clientGroupId: string, now: number) {
  return db
    .update(replicacheClientGroups)
    .set({ lastPulledAt: now })
    .where(
      and(
        eq(replicacheClientGroups.id, clientGroupId),
        lte(replicacheClientGroups.lastPulledAt, now - TOUCH_INTERVAL_MS),
      ),
    );
}

const changesOf = (result: unknown) => (result as { meta?: { changes?: number } }).meta?.changes ?? 0;

/** Confirmed owners of client groups, per isolate (plain data, bounded: forgetting costs one claim). */
const knownOwners = new Map<string, { userId: string; workspaceId: string; touchedAt: number }>();
const MAX_KNOWN_OWNERS = 10_000;
function rememberOwner(id: string, owner: { userId: string; workspaceId: string }, now: number) {
  if (!knownOwners.has(id) && knownOwners.size >= MAX_KNOWN_OWNERS) knownOwners.clear();
  knownOwners.set(id, { userId: owner.userId, workspaceId: owner.workspaceId, touchedAt: now });
}

/**
 * The last mutation ids of this group's clients recorded since the cookie's version, at most up to
 * the answer's: what a push recorded without bumping the version (refused, unknown mutations) is
 * stamped with the version then current, which an incremental pull's shared read cannot see. One
 * indexed read (replicache_clients_group_idx), made only when the workspace's acks moved
 * (docs/decisions/0035). Ids stamped above the answer's version belong to writes the answer does
 * not carry yet: they come with the pull that does.
 */
export async function ackedMutationIds(
  db: Db,
  clientGroupId: string,
  since: number,
  upTo: number,
): Promise<Record<string, number>> {
  const rows = await db
    .select({ id: replicacheClients.id, lastMutationId: replicacheClients.lastMutationId })
    .from(replicacheClients)
    .where(and(eq(replicacheClients.clientGroupId, clientGroupId), between(replicacheClients.version, since, upTo)));
  return Object.fromEntries(rows.map((r) => [r.id, r.lastMutationId]));
}
