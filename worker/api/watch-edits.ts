import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Context } from "hono";
import { can } from "../../shared/account/roles";
import { workspaceSession, type SessionInfo } from "../auth/session";
import { forbidden } from "../lib/errors";
import type { AppEnv } from "../types";
import { commitWorkspaceWrite } from "../workspace-object";

/**
 * The caller's workspace, for a route that changes places or alert rules: a viewer reads but does
 * not change. The route rules (worker/api/route-rules.ts) refuse first; this asks the same role
 * table (shared/account/roles.ts) again where the write is made.
 */
export function editorSession(session: SessionInfo) {
  const scoped = workspaceSession(session);
  if (!can(session.role, "fleet.edit")) throw forbidden("Viewers cannot change places or alert rules");
  return scoped;
}

/**
 * Commits a write to places, alert rules or read state (version bumped, rows stamped; the caller's
 * next pull sees it) and tells the workspace's object, which reloads its places and rules before
 * this resolves, so the next report, through whatever isolate, is evaluated against them.
 */
export async function commitWatched(
  c: Context<AppEnv>,
  workspaceId: string,
  writes: (stamp: SQL<number>) => BatchItem<"sqlite">[],
) {
  const w = { env: c.env, db: c.var.db, waitUntil: (work: Promise<unknown>) => c.executionCtx.waitUntil(work) };
  await commitWorkspaceWrite(w, workspaceId, writes, { readYourWrites: true, change: { places: true, rules: true } });
}
