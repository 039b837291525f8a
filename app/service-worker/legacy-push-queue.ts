/**
 * Workbox's Background Sync database, where builds before issue 51 kept failed `POST
 * /api/sync/push` requests for a week with their headers, the bearer token included, and replayed
 * them after a sign-out. No build uses it any more; the service worker deletes it when it takes
 * over and sign-out deletes it too (docs/decisions/0074), whichever comes first.
 */
export const LEGACY_PUSH_QUEUE_DB = "workbox-background-sync";

export function deleteLegacyPushQueue(): Promise<void> {
  return new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(LEGACY_PUSH_QUEUE_DB);
    // Blocked (another context has it open) still deletes once that closes; nothing to wait for.
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}
