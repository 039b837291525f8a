import { Server, type Connection } from "partyserver";
import { POKE_MESSAGE } from "../shared/realtime";
import { database } from "../worker/db/client";
import type { Env } from "../worker/env";
import { readChanges, SharedChanges, type Changes } from "../worker/sync/changes";

/**
 * One room per workspace (the room name is the workspace id). Browsers connect through
 * partysocket after the Worker has checked their session token (worker/realtime.ts); the Worker
 * calls `poke()` after every write in the workspace, and the room tells every connection to pull.
 *
 * Pokes are coalesced: the first after a quiet spell goes out at once (latency matters), later
 * ones within POKE_INTERVAL_MS are folded into a single trailing poke, so a fleet reporting every
 * second cannot make clients pull hundreds of times a second, and the last change is never lost.
 */
export const POKE_INTERVAL_MS = 250;

export class WorkspaceRoom extends Server<Env> {
  // Hibernation lets an idle room with open sockets be evicted without dropping them.
  static override options = { hibernate: true };

  #lastPokeAt = 0;
  #trailing: ReturnType<typeof setTimeout> | null = null;
  /** What changed since a cookie, read once per write for all of the workspace's pulls (docs/decisions/0013). */
  readonly #changes = new SharedChanges((workspaceId, since) => readChanges(database(this.env.DB), workspaceId, since));

  /** Called by the Worker over RPC after a committed write in this workspace. */
  async poke(): Promise<void> {
    // Before anything is sent: no pull that follows this poke may be answered from an older read.
    this.#changes.invalidate();
    const wait = this.#lastPokeAt + POKE_INTERVAL_MS - Date.now();
    if (wait <= 0 && !this.#trailing) {
      this.#send();
      return;
    }
    this.#trailing ??= setTimeout(() => {
      this.#trailing = null;
      this.#send();
    }, Math.max(wait, 0));
  }

  /**
   * The shared part of an incremental pull (worker/sync/pull.ts), over RPC from the Worker, which
   * has checked the session's workspace and addresses this room by it.
   */
  async changesSince(workspaceId: string, since: number): Promise<Changes> {
    return this.#changes.since(workspaceId, since);
  }

  /** How many sockets are connected; used by tests and the benchmark. */
  async connectionCount(): Promise<number> {
    let n = 0;
    for (const _ of this.getConnections()) n++;
    return n;
  }

  override onMessage(connection: Connection, message: string | ArrayBuffer | ArrayBufferView) {
    // Clients only listen; a "ping" is answered so they can check the socket end to end.
    if (message === "ping") connection.send("pong");
  }

  override onRequest(): Response {
    // Pokes arrive over RPC from the Worker; nothing reaches the room over plain HTTP.
    return new Response("Not found", { status: 404 });
  }

  #send() {
    this.#lastPokeAt = Date.now();
    this.broadcast(POKE_MESSAGE);
  }
}
