import type { Connection, ConnectionContext } from "partyserver";
import { encodeMessage, SESSION_ENDED_CLOSE_CODE } from "../../shared/sync/room-protocol";
import type { Db } from "../../db/client";
import type { AlarmTask } from "../alarm/alarm-task";
import type { RoomSync } from "../room-sync";

/**
 * How often a room with open sockets re-checks their sessions: revocations close sockets at once
 * (the Worker announces them, WorkspaceChange.sessions); this catches what nobody announces, a
 * session reaching its idle or absolute limit, a member removed from the workspace, or an
 * announcement that was lost. Pulls ride on the socket (docs/decisions/0013), so this bounds how
 * long a session that ended unannounced can still pull: one query per room a minute, however
 * many sockets and reports.
 */
export const SOCKET_RECHECK_MS = 60_000;

/** How long the room remembers a revoked session, to refuse its sockets that were already on their way. */
const ENDED_MEMORY_MS = 10 * 60_000;

/** Whose socket it is, as the Worker vouched for it (worker/room-entry.ts); kept across hibernation. */
export interface SocketOwner {
  sessionHash: string;
  userId: string;
}

/** What the sockets need of their room. */
export interface SocketsRoom {
  workspaceId: string;
  connections(): Iterable<Connection<SocketOwner>>;
  db(): Db;
  sync: Pick<RoomSync<unknown>, "liveSessionsIn" | "touchSessions">;
}

/**
 * The room's sockets: who may open one, closing those whose session or membership ended, and the
 * alarm task that re-checks them all once a minute.
 */
export class RoomSockets implements AlarmTask {
  readonly name = "sockets' re-check";
  /** Sessions that pulled over their socket since the last re-check (their idle clock restarts then). */
  readonly #pulledSince = new Set<string>();
  /** Sessions revoked lately, by hash, with when the Worker said so. */
  readonly #recentlyEnded = new Map<string, number>();
  /** When the sockets are next re-checked (0: not scheduled). */
  #recheckAt = 0;

  constructor(private readonly room: SocketsRoom) {}

  /** Lets a socket in if the Worker vouched for it and its session was not revoked since; answers whether it did. */
  admit(connection: Connection<SocketOwner>, ctx: ConnectionContext): boolean {
    const sessionHash = ctx.request.headers.get("x-fleet-session");
    const userId = ctx.request.headers.get("x-fleet-user");
    // Only the Worker's own check lets a socket in, and it always sets both; anything else is
    // refused. The check was made just before: a revocation since then has been announced here.
    if (!sessionHash || !userId || this.#recentlyEnded.has(sessionHash)) {
      connection.close(SESSION_ENDED_CLOSE_CODE, "session ended");
      return false;
    }
    connection.setState({ sessionHash, userId });
    connection.send(encodeMessage({ type: "pulls-ready" }));
    return true;
  }

  /** Whether any socket is open. */
  get open(): boolean {
    return this.room.connections()[Symbol.iterator]().next().done === false;
  }

  /** A session pulled over its socket: it counts as used at the next re-check. */
  used(sessionHash: string): void {
    this.#pulledSince.add(sessionHash);
  }

  /** Sessions were revoked: their sockets close at once, and any still on its way is refused on arrival. */
  closeSessions(sessionHashes: readonly string[]): number {
    const ended = new Set(sessionHashes);
    // A socket whose session the Worker checked just before the revocation may reach the room
    // just after this notice: it is refused on arrival (ENDED_MEMORY_MS is far longer than that gap).
    const now = Date.now();
    for (const [hash, at] of this.#recentlyEnded) if (now - at > ENDED_MEMORY_MS) this.#recentlyEnded.delete(hash);
    for (const hash of ended) this.#recentlyEnded.set(hash, now);
    return this.#closeWhere((owner) => ended.has(owner.sessionHash));
  }

  /** Members left the workspace: every socket of theirs closes. */
  closeUsers(userIds: readonly string[]): number {
    const removed = new Set(userIds);
    return this.#closeWhere((owner) => removed.has(owner.userId));
  }

  /**
   * Closes the sockets whose session is no longer live in this workspace; answers how many. The
   * sessions that pulled over their socket since the last re-check had a use: their idle clock
   * restarts, as an HTTP pull's would.
   */
  async recheck(): Promise<number> {
    const used = [...this.#pulledSince];
    this.#pulledSince.clear();
    const db = this.room.db();
    if (used.length) await this.room.sync.touchSessions(db, used);
    const owners = [...this.room.connections()].flatMap((c) => (c.state ? [c.state.sessionHash] : []));
    if (owners.length === 0) return 0;
    const live = await this.room.sync.liveSessionsIn(db, this.room.workspaceId, owners);
    return this.#closeWhere((owner) => !live.has(owner.sessionHash));
  }

  dueAt(now: number): number | null {
    if (!this.open) return null;
    if (!this.#recheckAt) this.#recheckAt = now + SOCKET_RECHECK_MS;
    return this.#recheckAt;
  }

  async run(): Promise<void> {
    this.#recheckAt = 0;
    // D1 unreachable: the sockets stay as they are until the next re-check (a minute).
    await this.recheck();
  }

  #closeWhere(ended: (owner: SocketOwner) => boolean): number {
    let closed = 0;
    for (const connection of this.room.connections()) {
      const owner = connection.state;
      if (!owner || ended(owner)) {
        connection.close(SESSION_ENDED_CLOSE_CODE, "session ended");
        closed++;
      }
    }
    return closed;
  }
}
