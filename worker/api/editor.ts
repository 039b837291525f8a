import { and, eq } from "drizzle-orm";
import { workspaceSession, type SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { memberships } from "../db/schema";
import { forbidden } from "../lib/errors";

/**
 * The caller's workspace, for a route that changes places or alert rules: a viewer reads but does
 * not change (DESIGN.md "Teams"). When the team issue's role table (shared/roles.ts) lands, this
 * is the one place to ask it instead.
 */
export async function editorSession(db: Db, session: SessionInfo) {
  const scoped = workspaceSession(session);
  const member = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, scoped.workspaceId), eq(memberships.userId, scoped.userId)))
    .get();
  if (!member || member.role === "viewer") throw forbidden("Viewers cannot change places or alert rules");
  return scoped;
}
