import { and, between, eq } from "drizzle-orm";
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

/**
 * A client group belongs to one user in one workspace. The first request naming a new id claims it
 * atomically (insert, or nothing if it exists, then read who owns it), so two sessions presenting
 * the same brand-new id at once cannot both be served; reusing an id from another session (another
 * user, or the same user in another workspace) is refused, so no state can leak across tenants.
 * Returns whether the group's clients may rebase their mutation ids (see push).
 */
export async function claimClientGroup(db: Db, session: SyncCaller, clientGroupId: string) {
  const [, owner] = await db.batch([
    db
      .insert(replicacheClientGroups)
      .values({ id: clientGroupId, userId: session.userId, workspaceId: session.workspaceId })
      .onConflictDoNothing(),
    db.select().from(replicacheClientGroups).where(eq(replicacheClientGroups.id, clientGroupId)),
  ]);
  const group = owner[0];
  if (!group || group.userId !== session.userId || group.workspaceId !== session.workspaceId) {
    throw forbidden("This sync client belongs to another session");
  }
  rememberOwner(clientGroupId, group);
  return { rebase: group.rebase };
}

/**
 * The owner check alone, for pulls (which do not need `rebase`): a group whose owner this isolate
 * has already confirmed in D1 skips the round trip, so a pull after a poke costs no D1 work of its
 * own (docs/decisions/0013). An owner never changes once written, and only owners read back from
 * D1 after a claim are remembered, so the memory can refuse more often than D1 never less: an id
 * not in it (new, or forgotten) goes through the atomic claim.
 */
export async function checkClientGroupOwner(db: Db, session: SyncCaller, clientGroupId: string): Promise<void> {
  const known = knownOwners.get(clientGroupId);
  if (!known) {
    await claimClientGroup(db, session, clientGroupId);
    return;
  }
  if (known.userId !== session.userId || known.workspaceId !== session.workspaceId) {
    throw forbidden("This sync client belongs to another session");
  }
}

/** Confirmed owners of client groups, per isolate (plain data, bounded: forgetting costs one claim). */
const knownOwners = new Map<string, { userId: string; workspaceId: string }>();
const MAX_KNOWN_OWNERS = 10_000;
function rememberOwner(id: string, owner: { userId: string; workspaceId: string }) {
  if (knownOwners.has(id)) return;
  if (knownOwners.size >= MAX_KNOWN_OWNERS) knownOwners.clear();
  knownOwners.set(id, { userId: owner.userId, workspaceId: owner.workspaceId });
}

/**
 * The last mutation ids of this group's clients recorded since the cookie's version, at most up to
 * the answer's: what a push recorded without bumping the version (refused, unknown mutations) is
 * stamped with the version then current, which an incremental pull's shared read cannot see. One
 * indexed read (replicache_clients_group_idx), made only when the workspace's acks moved
 * (docs/decisions/0035). Ids stamped above the answer's version belong to writes the answer does
 * not carry yet: they come with the pull that does.
 */
export async function ackedMutationIds(db: Db, clientGroupId: string, since: number, upTo: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ id: replicacheClients.id, lastMutationId: replicacheClients.lastMutationId })
    .from(replicacheClients)
    .where(and(eq(replicacheClients.clientGroupId, clientGroupId), between(replicacheClients.version, since, upTo)));
  return Object.fromEntries(rows.map((r) => [r.id, r.lastMutationId]));
}
