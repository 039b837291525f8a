import { useSyncStatus } from "../store";

/** A small dot in the top bar: green when synced, amber with a count while edits wait, grey offline. */
export function SyncIndicator() {
  const { online, pendingMutations } = useSyncStatus();
  const label = !online
    ? pendingMutations
      ? `Offline: ${pendingMutations} change${pendingMutations === 1 ? "" : "s"} will sync when you reconnect`
      : "Offline: showing saved data"
    : pendingMutations
      ? `Saving ${pendingMutations} change${pendingMutations === 1 ? "" : "s"}…`
      : "All changes synced";
  const state = !online ? "offline" : pendingMutations ? "pending" : "synced";
  return (
    <span className={`sync-indicator ${state}`} role="status" aria-label={label} title={label} data-state={state}>
      <span className="sync-dot" aria-hidden />
      {!online ? "Offline" : null}
      {pendingMutations ? <span className="sync-count">{pendingMutations}</span> : null}
    </span>
  );
}
