import { eq } from "drizzle-orm";
import type { SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { replicacheClientGroups } from "../db/schema";
import { forbidden } from "../lib/errors";

/**
 * A client group belongs to one user in one workspace. The first request naming a new id claims it
 * atomically (insert, or nothing if it exists, then read who owns it), so two sessions presenting
 * the same brand-new id at once cannot both be served; reusing an id from another session (another
 * user, or the same user in another workspace) is refused, so no state can leak across tenants.
 * Returns whether the group's clients may rebase their mutation ids (see push).
 */
export async function claimClientGroup(db: Db, session: SessionInfo & { workspaceId: string }, clientGroupId: string) {
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
  return { rebase: group.rebase };
}
