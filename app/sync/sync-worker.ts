/**
 * The sync worker (docs/decisions/0015): a dedicated Web Worker per open workspace that runs
 * Replicache, its IndexedDB and the room's socket, so applying a pull, persisting it and parsing
 * answers never take the page's main thread. The page (app/sync/sync-client.ts) gets Replicache's
 * change lists for its client store and asks for mutations; everything else happens here.
 */
import type { StoreChange } from "../store/client-store";
import { buildMutators } from "./build-mutators";
import { connectRoom } from "./room-socket";
import { createReplicache, pendingMutationCount, type Rep } from "./replicache-client";
import { SocketPulls } from "./socket-pull";
import type { PageToWorker, WorkerToPage } from "./sync-messages";
import { SyncHealth } from "./sync-health";

/** The worker's global scope, as far as this file uses it (the app's TypeScript lib is the DOM's). */
const scope = self as unknown as {
  postMessage(message: WorkerToPage): void;
  addEventListener(type: "message", listener: (event: MessageEvent<PageToWorker>) => void): void;
  addEventListener(
    type: "error" | "unhandledrejection",
    listener: (event: ErrorEvent | PromiseRejectionEvent) => void,
  ): void;
  close(): void;
};
const post = (message: WorkerToPage) => scope.postMessage(message);

let session: Session | null = null;
let nextAuthId = 1;
const authWaiting = new Map<number, (token: string | null) => void>();

scope.addEventListener("message", ({ data }) => {
  switch (data.type) {
    case "open":
      session ??= openSession(data);
      return;
    case "auth":
      authWaiting.get(data.id)?.(data.token);
      authWaiting.delete(data.id);
      return;
    default:
      void session?.handle(data);
  }
});

// Nothing here may fail silently: the page reports it as its own error.
scope.addEventListener("error", (event) => post({ type: "crash", message: String((event as ErrorEvent).message) }));
scope.addEventListener("unhandledrejection", (event) => {
  if (session?.closing) return; // Replicache's own "Closed" rejections while it shuts down
  const reason = (event as PromiseRejectionEvent).reason as unknown;
  post({ type: "crash", message: reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason) });
});

interface Session {
  closing: boolean;
  handle(message: PageToWorker): Promise<void>;
}

/** A 401: the page checks its session; go on with the token only if it is still this browser's. */
const askPageForToken = () =>
  new Promise<string | null>((resolve) => {
    const id = nextAuthId++;
    authWaiting.set(id, resolve);
    post({ type: "auth-needed", id });
  });

function openSession({ viewerId, workspaceId, token, nextBuild }: Extract<PageToWorker, { type: "open" }>): Session {
  const health = new SyncHealth();
  health.subscribe(() => post({ type: "health", problem: health.problem }));
  let pulls: SocketPulls | null = null;
  const rep: Rep = createReplicache({
    viewerId,
    workspaceId,
    token,
    reauthenticate: askPageForToken,
    health,
    mutatorDefs: buildMutators(nextBuild),
    pullOverSocket: (body) => pulls?.pull(body) ?? Promise.resolve(null),
    onReloadNeeded: () => post({ type: "reload" }),
    onRefused: (refused) => post({ type: "refused", messages: [...new Set(refused.map((r) => r.message))] }),
  });
  const backlog = pushBacklogAfterSyncs(rep, health);
  const changes = new HeldChanges();
  const unwatch = forwardChanges(rep, changes);
  // Back online, or the socket (re)connected: catch up and send what was edited offline now, not
  // after the retry back-off; pokes may have been missed while the socket was down.
  const catchUp = () => {
    if (rep.closed) return;
    backlog.reset();
    void rep.pull({ now: true });
    void rep.push({ now: true });
  };
  const socket = connectRoom(workspaceId, token, {
    onPoke: () => void rep.pull(),
    onConnect: catchUp,
    onClose: () => pulls?.abandonAll(),
    onMessage: (data) => pulls?.receive(data) ?? false,
    onSessionEnded: () => post({ type: "session-ended" }),
  });
  pulls = new SocketPulls(socket);

  const session: Session = {
    closing: false,
    async handle(message) {
      switch (message.type) {
        case "mutate":
          return runMutation(rep, changes, message);
        case "pending":
          post({ type: "reply", id: message.id, value: await pendingMutationCount(rep).catch(() => null) });
          return;
        case "catch-up":
          catchUp();
          socket.reconnect();
          return;
        case "close":
          session.closing = true;
          unwatch();
          socket.close();
          return closeStore(rep);
      }
    },
  };
  return session;
}

/**
 * Keeps pending edits flowing: Replicache pushes when new ones are made, but the server applies a
 * bounded prefix per push (a week offline can be thousands), so this pushes again after each sync
 * while the backlog keeps shrinking. `reset` forgets the last count (a fresh start after catch-up).
 */
function pushBacklogAfterSyncs(rep: Rep, health: SyncHealth) {
  let backlog = Infinity;
  const pushRest = async () => {
    const pending = await pendingMutationCount(rep);
    if (pending === null || pending === 0 || health.problem) {
      backlog = Infinity;
      return;
    }
    if (pending < backlog) {
      backlog = pending;
      void rep.push({ now: true });
    }
  };
  rep.onSync = (syncing) => {
    if (syncing) return;
    post({ type: "synced" });
    void pushRest();
  };
  return {
    reset() {
      backlog = Infinity;
    },
  };
}

/**
 * Change lists on their way to the page, held back while an edit of this page is being written to
 * disk: the page shows an edit (in a list, as a count) only once a reload can no longer lose it
 * (issue 56, docs/decisions/0074). Pulls' changes that arrive meanwhile wait the same few milliseconds.
 */
class HeldChanges {
  #holds = 0;
  #held: StoreChange[] = [];

  post(changes: StoreChange[]) {
    if (this.#holds > 0) this.#held.push(...changes);
    else post({ type: "changes", changes });
  }

  /** Holds what comes until `release` is called (holds nest: the last release sends). */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0 || this.#held.length === 0) return;
      const changes = this.#held;
      this.#held = [];
      post({ type: "changes", changes });
    };
  }
}

/** Keeps the page's client store equal to Replicache's; answers the function that stops it. */
function forwardChanges(rep: Rep, changes: HeldChanges): () => void {
  // Only what the store reads crosses to the page (not Replicache's old values: half the copying).
  return rep.experimentalWatch(
    (diff) =>
      changes.post(
        diff.map((c) => (c.op === "del" ? { op: c.op, key: c.key } : { op: c.op, key: c.key, newValue: c.newValue })),
      ),
    { initialValuesInFirstDiff: true },
  );
}

/**
 * Runs the page's mutation by its name, writes it to IndexedDB, and only then shows it and replies:
 * Replicache alone keeps an edit in memory for about a second, and a tab closed or reloaded within
 * that second lost it (issue 56).
 */
async function runMutation(
  rep: Rep,
  changes: HeldChanges,
  { id, name, args }: Extract<PageToWorker, { type: "mutate" }>,
) {
  const release = changes.hold();
  try {
    const mutate = rep.mutate as unknown as Record<string, (args: unknown) => Promise<unknown>>;
    const run = mutate[name];
    if (!run) throw new Error(`Unknown mutator ${name}`);
    await run(args);
    await rep.persist();
    release();
    post({ type: "reply", id });
  } catch (error) {
    release();
    post({ type: "reply", id, error: error instanceof Error ? error.message : String(error) });
  }
}

/** Closes Replicache, tells the page, and ends this worker. */
async function closeStore(rep: Rep) {
  // After it has finished opening: closing one mid-open is what Replicache trips on. A store
  // whose database went away under it (another tab's sign-out) rejects with "Closed": nothing
  // is left to release then.
  await rep.clientGroupID.catch(() => undefined);
  if (!rep.closed) await rep.close().catch((error: unknown) => console.warn("Closing the local store:", error));
  post({ type: "closed" });
  scope.close();
}
