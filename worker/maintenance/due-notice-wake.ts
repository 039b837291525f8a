import type { Db } from "../../db/client";
import type { Env } from "../env";
import { runWorkspaceTasks } from "../workspace-object";
import { workspacesWithDue } from "./due-notifications";

/**
 * The cron's part in service due notices (docs/decisions/0066): none of the writing, which is the
 * workspace object's (party/due-notices/), only a wake for the objects of workspaces with something
 * to announce. One read-only query across workspaces per quarter hour (the one the cron ran before,
 * the workspace waiting longest first); each object found checks its own schedules, claims what
 * is due with its Inbox entry and announces it.
 */
export async function wakeWorkspacesWithDue(db: Db, env: Env, now = Date.now()): Promise<string[]> {
  const woken: string[] = [];
  for (const workspaceId of await workspacesWithDue(db, now)) {
    // One object failing to wake delays only itself: the next quarter hour asks again.
    await runWorkspaceTasks(env, workspaceId, { dueNotices: true }, now)
      .then(() => woken.push(workspaceId))
      .catch((error: unknown) =>
        console.error(`waking workspace ${workspaceId}'s object for due notices failed:`, error),
      );
  }
  return woken;
}
