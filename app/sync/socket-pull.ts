import { encodeMessage, parseRoomMessage } from "../../shared/sync/room-protocol";
import type { PullAnswer } from "../../shared/sync/sync-protocol";

/** The socket as this module uses it (partysocket's, in the sync worker). */
export interface PullSocket {
  readonly readyState: number;
  send(data: string): void;
}
const OPEN = 1;

/**
 * Incremental pulls over the workspace room's socket (shared/sync/room-protocol.ts, docs/decisions/0013):
 * no HTTP request, no session lookup and no D1 read of their own. A pull goes over HTTP instead
 * (`pull` answers null) until the room has said it serves pulls on this connection, when there is no cookie yet (the first, full answer), when the socket is
 * not open, when the room says so (`viaHttp`: a reset, or an answer too large for a socket
 * message), when the socket closes before the answer, or when no answer comes in time.
 */
export class SocketPulls {
  #nextId = 1;
  /** The room said it serves pulls on this connection (SocketPullsReady). */
  #ready = false;
  readonly #waiting = new Map<number, (answer: PullAnswer | null) => void>();

  constructor(
    private readonly socket: PullSocket,
    private readonly timeoutMs = 15_000,
  ) {}

  pull(body: { cookie?: unknown; [field: string]: unknown }): Promise<PullAnswer | null> {
    if (!this.#ready || body.cookie === null || body.cookie === undefined || this.socket.readyState !== OPEN)
      return Promise.resolve(null);
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#settle(id, null), this.timeoutMs);
      this.#waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      try {
        this.socket.send(encodeMessage({ type: "pull", id, body }));
      } catch {
        this.#settle(id, null);
      }
    });
  }

  /** A message from the room; true when it was about pulls (pokes and the rest are not). */
  receive(data: unknown): boolean {
    const message = parseRoomMessage(data);
    if (!message) return false;
    if (message.type === "pulls-ready") {
      this.#ready = true;
      return true;
    }
    this.#settle(message.id, "viaHttp" in message ? null : { status: message.status, body: message.body });
    return true;
  }

  /** The socket closed: whatever waits on it goes over HTTP now, and so does every pull until the next connection says it is ready. */
  abandonAll() {
    this.#ready = false;
    for (const id of [...this.#waiting.keys()]) this.#settle(id, null);
  }

  #settle(id: number, answer: PullAnswer | null) {
    const settle = this.#waiting.get(id);
    if (!settle) return;
    this.#waiting.delete(id);
    settle(answer);
  }
}
