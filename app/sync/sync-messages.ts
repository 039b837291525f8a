import type { StoreChange } from "../store/client-store";
import type { SyncProblem } from "./sync-health";

/**
 * What the page and its sync worker (app/sync/sync-worker.ts, docs/decisions/0015) say to each
 * other. Both come from the same build (the worker's URL is fingerprinted with it), so the
 * protocol needs no versioning. Requests that want an answer carry an `id`, echoed by the reply.
 */
export type PageToWorker =
  | { type: "open"; viewerId: string; workspaceId: string; token: string; nextBuild: boolean }
  | { type: "mutate"; id: number; name: string; args: unknown }
  | { type: "pending"; id: number }
  /** The browser came back online: pull and push now, reconnect the socket. */
  | { type: "catch-up" }
  /** The answer to `auth-needed`: the token to go on with, or null when the session is gone. */
  | { type: "auth"; id: number; token: string | null }
  | { type: "close" };

export type WorkerToPage =
  /** Replicache's change list for the client store (the whole store in the first one). */
  | { type: "changes"; changes: StoreChange[] }
  /** A sync (pull or push round) ended, successfully or not. */
  | { type: "synced" }
  | { type: "health"; problem: SyncProblem }
  | { type: "reply"; id: number; value?: unknown; error?: string }
  /** A request got 401: the page checks its session and answers with `auth`. */
  | { type: "auth-needed"; id: number }
  /** The server wants a newer app, or the client state is gone: the page reloads (at most once a minute). */
  | { type: "reload" }
  /** The room closed the socket because this session ended. */
  | { type: "session-ended" }
  /** The server refused pushed edits for the viewer's role: the page says why (they revert on the next pull). */
  | { type: "refused"; messages: string[] }
  /** Replicache has closed; the worker is about to end. */
  | { type: "closed" }
  /** An error nothing in the worker handled. */
  | { type: "crash"; message: string };
