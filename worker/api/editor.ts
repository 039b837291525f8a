import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { workspaceSession, type SessionInfo } from "../auth/session";
import type { Db } from "../db/client";
import { memberships } from "../db/schema";
import { forgetWatch } from "../fleet/workspace-watch";
import { forbidden } from "../lib/errors";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";

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

/**
 * Commits a write to places, alert rules or read state (version bumped, rows stamped, the room
 * told; the caller's next pull sees it), and drops the workspace's cached places and rules in this
 * isolate so the next report is evaluated against them.
 */
export async function commitWatched(c: Context<AppEnv>, workspaceId: string, writes: (stamp: SQL<number>) => BatchItem<"sqlite">[]) {
  const w = { env: c.env, db: c.var.db, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
  await commitWorkspaceWrite(w, workspaceId, writes, { readYourWrites: true });
  forgetWatch(workspaceId);
}
