import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { database } from "../../db/client";
import { roomParts, type RoomParts } from "../../party/room/room-parts";
import type { SocketOwner } from "../../party/room/sockets";
import type { Changes } from "../sync/changes";
import { roomSync, type WorkspaceRoom } from "../workspace-room";

/**
 * A workspace object's parts (party/room/room-parts.ts) made afresh over that object's own storage,
 * for a test of one part alone: the room exposes no part, so a test reads what the object stored
 * (its fleet's vehicles and pending reports, its positions) or drives a part (a failing flush, a
 * failing job) through parts of its own. They start from the storage, which every write of the
 * room reaches before it answers; what a room's part keeps only in memory (a flush's backoff, the
 * sessions that pulled over a socket) is not theirs, and such tests go through the room's calls.
 */
export function withRoomParts<T>(
  workspaceId: string,
  use: (parts: RoomParts<Changes>, state: DurableObjectState) => T | Promise<T>,
): Promise<T> {
  const object = env.WorkspaceRoom.get(env.WorkspaceRoom.idFromName(workspaceId));
  return runInDurableObject(object, (room: WorkspaceRoom, state) => {
    const parts = roomParts<Changes>({
      workspaceId,
      storage: state.storage,
      positionsBucket: env.POSITIONS,
      db: () => database(env.DB),
      sync: roomSync,
      connections: () => room.getConnections<SocketOwner>(),
      broadcast: (message) => room.broadcast(message),
      // The notices are the object's alarm task (worker/maintenance/due-notice-wake.ts drives them): none here.
      checkDueNotices: async () => ({ announced: false, more: false }),
      sendCustomerMessages: async () => 0,
    });
    return use(parts, state);
  });
}
