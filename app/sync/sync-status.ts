import { useEffect, useState } from "react";
import type { SyncProblem } from "./sync-health";
import { useSync } from "./sync-provider";

export interface SyncStatus {
  /** null when syncing works; "offline": no answer (browser offline, network, Worker down); "refused": the server said no. */
  problem: SyncProblem;
  /** Local edits the server has not confirmed yet. */
  pendingMutations: number;
}

/**
 * The top bar's sync state: the browser's online signal, how the last sync request ended
 * (app/sync/sync-health.ts), and the count of edits waiting.
 */
export function useSyncStatus(): SyncStatus {
  const sync = useSync();
  const [browserOnline, setBrowserOnline] = useState(true);
  const [problem, setProblem] = useState<SyncProblem>(null);
  const [pendingMutations, setPending] = useState(0);
  useEffect(() => {
    const update = () => setBrowserOnline(navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  useEffect(() => {
    if (!sync) return;
    const { client, health } = sync;
    let stopped = false;
    const refresh = async () => {
      const pending = await client.pendingMutationCount().catch(() => null);
      if (!stopped && pending !== null) setPending(pending);
    };
    const unsubscribe = health.subscribe(() => {
      setProblem(health.problem);
      void refresh();
    });
    setProblem(health.problem);
    // Pending mutations have no change event; a cheap local read once a second is enough for a badge.
    const timer = setInterval(refresh, 1000);
    void refresh();
    return () => {
      stopped = true;
      clearInterval(timer);
      unsubscribe();
    };
  }, [sync]);
  return { problem: browserOnline ? problem : "offline", pendingMutations };
}
