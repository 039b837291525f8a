import type { ClientStore, StoreChange } from "../store/client-store";
import { createReloadLimiter } from "./reload-limiter";
import type { SyncHealth } from "./sync-health";
import type { PageToWorker, WorkerToPage } from "./sync-messages";

export interface SyncClientOptions {
  viewerId: string;
  workspaceId: string;
  token: string;
  /** Opened as the next build (`?sync-next-build`, app/sync/build-mutators.ts). */
  nextBuild: boolean;
  /** Fed with Replicache's change lists. */
  store: ClientStore;
  /** Mirrors the worker's view of how sync requests end. */
  health: SyncHealth;
  /** After a 401: the token to go on with, or null when the session is gone. */
  reauthenticate: () => Promise<string | null>;
  /** The room closed the socket because this session ended. */
  onSessionEnded: () => void;
  /** The server refused edits for the viewer's role: say why. */
  onRefused?: (messages: string[]) => void;
}

/** How long a closing worker may take to close Replicache before it is ended anyway. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The page's side of the sync worker (app/sync/sync-worker.ts, docs/decisions/0015): Replicache,
 * IndexedDB and the room's socket run there, off the main thread. The page keeps the client store,
 * fed by the worker's change lists (the cheap, proportional part), and sends mutations to it.
 */
export class SyncClient {
  readonly #worker: Worker;
  readonly #replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  readonly #pendingListeners = new Set<() => void>();
  #nextId = 1;
  #closed: Promise<void> | null = null;

  constructor(private readonly options: SyncClientOptions) {
    this.#worker = new Worker(new URL("./sync-worker.ts", import.meta.url), { type: "module", name: "fleet-ops-sync" });
    this.#worker.addEventListener("message", (event: MessageEvent<WorkerToPage>) => this.#receive(event.data));
    // The worker's script could not be loaded: an open tab from a build whose assets a deploy has
    // replaced. Only a reload brings the new one.
    this.#worker.addEventListener("error", (event) => {
      event.preventDefault();
      console.error("The sync worker failed:", event.message);
      if (!event.message) reloadAtMostOncePerMinute();
    });
    const { viewerId, workspaceId, token, nextBuild } = options;
    this.#send({ type: "open", viewerId, workspaceId, token, nextBuild });
  }

  /** Runs a mutator (optimistically: the client store hears of its effect at once). */
  async mutate(name: string, args: unknown): Promise<void> {
    await this.#request((id) => ({ type: "mutate", id, name, args }));
    this.#pendingMayHaveChanged();
  }

  /**
   * Called when the count of pending edits may have changed: this page recorded one, or a sync
   * (push or pull) ended. Replicache has no event for the count itself; these are the moments it moves.
   */
  onPendingChange(listener: () => void): () => void {
    this.#pendingListeners.add(listener);
    return () => this.#pendingListeners.delete(listener);
  }

  #pendingMayHaveChanged() {
    for (const listener of this.#pendingListeners) listener();
  }

  /** The number of local edits the server has not confirmed, or null when the store is closed. */
  async pendingMutationCount(): Promise<number | null> {
    if (this.#closed) return null;
    return (await this.#request((id) => ({ type: "pending", id }))) as number | null;
  }

  /** The browser is back online: pull, push and reconnect now. */
  catchUp() {
    if (!this.#closed) this.#send({ type: "catch-up" });
  }

  /** Closes Replicache (after it has finished opening) and ends the worker. */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#worker.terminate();
        for (const { reject } of this.#replies.values()) reject(new Error("The local store is closed"));
        this.#replies.clear();
        resolve();
      };
      const timer = setTimeout(end, CLOSE_TIMEOUT_MS);
      this.#worker.addEventListener("message", (event: MessageEvent<WorkerToPage>) => {
        if (event.data.type === "closed") end();
      });
      this.#send({ type: "close" });
    });
    return this.#closed;
  }

  #request(message: (id: number) => PageToWorker): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("The local store is closed"));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#replies.set(id, { resolve, reject });
      this.#send(message(id));
    });
  }

  #send(message: PageToWorker) {
    this.#worker.postMessage(message);
  }

  #receive(message: WorkerToPage) {
    const { store, health } = this.options;
    switch (message.type) {
      case "changes":
        store.apply(message.changes as readonly StoreChange[]);
        return;
      case "synced":
        // The first sync ending (pull done, or failed offline) tells empty states they may show.
        store.markPulled();
        this.#pendingMayHaveChanged();
        return;
      case "health":
        health.record(message.problem ?? "ok");
        return;
      case "reply": {
        const waiting = this.#replies.get(message.id);
        this.#replies.delete(message.id);
        if (message.error === undefined) waiting?.resolve(message.value);
        else waiting?.reject(new Error(message.error));
        return;
      }
      case "auth-needed":
        void this.options.reauthenticate().then((token) => this.#send({ type: "auth", id: message.id, token }));
        return;
      case "reload":
        reloadAtMostOncePerMinute();
        return;
      case "session-ended":
        this.options.onSessionEnded();
        return;
      case "refused":
        this.options.onRefused?.(message.messages);
        return;
      case "crash":
        // Surfaced as the page's own error, so nothing that goes wrong in the worker goes unseen.
        setTimeout(() => {
          throw new Error(`Sync worker: ${message.message}`);
        });
        return;
      case "closed":
        return;
    }
  }
}

let limitedReload: (() => void) | undefined;
/** Reloads on Replicache's behalf happen at most once a minute per tab (app/sync/reload-limiter.ts). */
function reloadAtMostOncePerMinute() {
  limitedReload ??= createReloadLimiter({
    storage: sessionStorage,
    now: Date.now,
    reload: () => window.location.reload(),
    schedule: (run, ms) => setTimeout(run, ms),
  });
  limitedReload();
}
