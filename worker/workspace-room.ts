import type { RoomSync } from "../party/room-sync";
import { FleetRoom } from "../party/fleet-room";
import { liveSessionsIn, touchSessions } from "./auth/session";
import { answerPull } from "./sync/answer-pull";
import { readChanges, SharedChanges, type Changes } from "./sync/changes";
import { database } from "../db/client";
import { config } from "./env";
import { sendJobMessages } from "./jobs/customer-messages";
import { checkDueSchedules } from "./maintenance/due-notifications";

/** The sync server and the session rules the room answers socket pulls and re-checks sockets with. */
export const roomSync: RoomSync<Changes> = {
  share: (read) => new SharedChanges(read),
  readChanges,
  answerPull,
  liveSessionsIn,
  touchSessions,
};

/**
 * The workspace's Durable Object as the Worker exports it (wrangler.toml binds this class): the
 * room of party/fleet-room.ts, whose live fleet, positions and sockets live there, given the
 * sync server of worker/sync/ (docs/decisions/0026: the object never imports the HTTP edge).
 */
export class WorkspaceRoom extends FleetRoom<Changes> {
  protected readonly sync = roomSync;
  /** Service due notices, written by the object's alarm task (docs/decisions/0066) with the Worker's rule and e-mail. */
  protected readonly checkDueNotices = (workspaceId: string, now: number) =>
    checkDueSchedules(database(this.env.DB), config(this.env), workspaceId, now);
  /** Customer messages the vehicle's reports queued, sent by the object's alarm task (docs/decisions/0085). */
  protected readonly sendCustomerMessages = (workspaceId: string, now: number) =>
    sendJobMessages(database(this.env.DB), config(this.env), { workspaceId, now });
}
