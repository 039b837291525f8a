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
    // Read again as soon as an edit is recorded or a sync ends: a count read on a timer could miss
    // an edit pushed within its period, and "synced" would show while the edit was on its way.
    const unsubscribePending = client.onPendingChange(() => void refresh());
    setProblem(health.problem);
    void refresh();
    return () => {
      stopped = true;
      unsubscribe();
      unsubscribePending();
    };
  }, [sync]);
  return { problem: browserOnline ? problem : "offline", pendingMutations };
}
