/** Reloads on Replicache's behalf (update needed, client state lost) happen at most this often. */
export const RELOAD_INTERVAL_MS = 60_000;
const LAST_RELOAD_KEY = "las-sync-reload";
/** When the reload asked for is due (epoch ms): what a look at the tab (or a test) can check. */
export const RELOAD_DUE_KEY = "las-sync-reload-due";

interface Deps {
  storage: Pick<Storage, "getItem" | "setItem">;
  now: () => number;
  reload: () => void;
  schedule: (run: () => void, ms: number) => unknown;
}

/**
 * A reload that happens at most once a minute per tab: the time of the last one is kept in
 * sessionStorage (it survives the reload), and a request within the minute waits for its end, so a
 * server and a client that keep disagreeing cannot become a reload loop.
 */
export function createReloadLimiter(deps: Deps): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    const last = Number(deps.storage.getItem(LAST_RELOAD_KEY) ?? 0) || 0;
    const wait = Math.max(0, Math.min(RELOAD_INTERVAL_MS, last + RELOAD_INTERVAL_MS - deps.now()));
    deps.storage.setItem(RELOAD_DUE_KEY, String(deps.now() + wait));
    deps.schedule(() => {
      deps.storage.setItem(LAST_RELOAD_KEY, String(deps.now()));
      deps.reload();
    }, wait);
  };
}
