import type { Env } from "../env";
import type { ChangeSource, Changes } from "./changes";

/**
 * The shared part of incremental pulls, from the workspace's room (docs/decisions/0013): one D1
 * read per write and cookie however many browsers pull after the poke. The room is addressed by
 * the session's workspace id, the same name the Worker pokes it by.
 */
export function roomChanges(env: Env): ChangeSource {
  return async (workspaceId, since) => {
    const room = env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));
    return (await room.changesSince(workspaceId, since)) as Changes;
  };
}

/**
 * Makes the workspace's room drop its shared reads, so the next pull reads D1: awaited by a push
 * before it answers (its client's next pull sees its mutations, whatever the poke throttle's delay)
 * and after tombstones are collected (a cookie older than the new floor gets its reset).
 */
export async function forgetRoomChanges(env: Env, workspaceId: string): Promise<void> {
  await env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId)).forgetChanges();
}
