/**
 * How the last sync request ended, for the top bar (app/sync/sync-indicator.tsx): the difference
 * between "offline" (no answer: the network, or the Worker down) and "refused" (the server
 * answered and said no: an error status, VersionNotSupported, ClientStateNotFound) matters to a
 * user deciding whether to wait or to call someone. A 401 is neither: the session check decides.
 */
export type SyncProblem = "offline" | "refused" | null;

export class SyncHealth {
  #problem: SyncProblem = null;
  #listeners = new Set<() => void>();

  get problem(): SyncProblem {
    return this.#problem;
  }

  record(outcome: "ok" | "offline" | "refused") {
    const next = outcome === "ok" ? null : outcome;
    if (next === this.#problem) return;
    this.#problem = next;
    for (const listener of this.#listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** What a sync answer says about the server's willingness (status 200 can still be a refusal). */
export function outcomeOf(status: number, body: unknown): "ok" | "refused" | null {
  if (status === 401) return null;
  if (status !== 200) return "refused";
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  return error === "VersionNotSupported" || error === "ClientStateNotFound" ? "refused" : "ok";
}
