import { useSyncStatus } from "./sync-status";

const changes = (n: number) => `${n} change${n === 1 ? "" : "s"}`;

/**
 * A small dot in the top bar: green when synced, amber with a count while edits wait, grey
 * offline, red when the server refuses to sync (the edits stay on this device meanwhile).
 */
export function SyncIndicator() {
  const { problem, pendingMutations } = useSyncStatus();
  const label =
    problem === "offline"
      ? pendingMutations
        ? `Offline: ${changes(pendingMutations)} will sync when you reconnect`
        : "Offline: showing saved data"
      : problem === "refused"
        ? pendingMutations
          ? `Not syncing: the server refused; ${changes(pendingMutations)} kept on this device`
          : "Not syncing: the server refused"
        : pendingMutations
          ? `Saving ${changes(pendingMutations)}…`
          : "All changes synced";
  const state = problem ?? (pendingMutations ? "pending" : "synced");
  return (
    <span className={`sync-indicator ${state}`} role="status" aria-label={label} title={label} data-state={state}>
      <span className="sync-dot" aria-hidden />
      {/* A span, so a phone's top bar can leave the word out (the dot, the count and the label say it). */}
      {problem ? <span className="sync-label">{problem === "offline" ? "Offline" : "Not syncing"}</span> : null}
      {pendingMutations ? <span className="sync-count">{pendingMutations}</span> : null}
    </span>
  );
}
