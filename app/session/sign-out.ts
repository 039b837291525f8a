import { deletePhotoStore } from "../photos/pending-photos";
import { deleteLegacyPushQueue } from "../service-worker/legacy-push-queue";
import { dropStores, PENDING_DROPS_KEY } from "../sync/local-stores";

/**
 * Sign-out on this device (issue 51, docs/decisions/0074). Everything the signed-out person left
 * here goes at once, online or not: their local stores with any edits still pending, photos queued
 * for upload, the service worker's old request queue, what pages cached in localStorage (the tab's
 * sessionStorage holds only the reload limiter), and this browser's push subscription. The session
 * itself ends on the server now or, with no signal, at the next connection: the token is kept for
 * that one request only and sent before any other request of this origin (app/lib/http.ts).
 */
export async function signOutDevice(
  token: string | null,
  identity: { viewerId: string; workspaceIds: string[] } | null,
) {
  if (token) addPendingRevocation(token);
  // First, and at once: a sign-in that follows while the rest is under way keeps its new token.
  clearStorageExcept([PENDING_DROPS_KEY, PENDING_REVOCATIONS_KEY]);
  await Promise.all([
    identity ? dropStores(identity.viewerId, identity.workspaceIds) : undefined,
    deletePhotoStore(),
    deleteLegacyPushQueue(),
    unsubscribeFromPush(),
  ]);
  await finishPendingSignOuts();
}

/** Tokens signed out on this device whose revocation the server has not confirmed yet. */
const PENDING_REVOCATIONS_KEY = "fleet-ops-sign-outs-pending";
const REVOCATION_TIMEOUT_MS = 5_000;

function pendingRevocations(): string[] {
  try {
    const saved = JSON.parse(localStorage.getItem(PENDING_REVOCATIONS_KEY) ?? "[]") as unknown;
    return Array.isArray(saved) ? saved.filter((t): t is string => typeof t === "string" && t.length > 0) : [];
  } catch {
    return [];
  }
}

function writePendingRevocations(tokens: string[]) {
  if (tokens.length) localStorage.setItem(PENDING_REVOCATIONS_KEY, JSON.stringify(tokens));
  else localStorage.removeItem(PENDING_REVOCATIONS_KEY);
}

function addPendingRevocation(token: string) {
  writePendingRevocations([...new Set([...pendingRevocations(), token])]);
}

export const hasPendingSignOuts = () => typeof localStorage !== "undefined" && pendingRevocations().length > 0;

let running: Promise<void> | null = null;

/**
 * Ends on the server the sessions signed out here while offline. A token is crossed off once the
 * server answers that it is ended (200), or that it is no session (401, 403); with no answer it stays
 * for the next try (every page load, the browser coming back online, and before any API request).
 */
export function finishPendingSignOuts(): Promise<void> {
  running ??= revokeAll().finally(() => {
    running = null;
  });
  return running;
}

async function revokeAll() {
  for (const token of pendingRevocations()) {
    try {
      const answer = await fetch("/api/signout", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(REVOCATION_TIMEOUT_MS),
      });
      if (answer.ok || answer.status === 401 || answer.status === 403)
        writePendingRevocations(pendingRevocations().filter((t) => t !== token));
    } catch {
      return; // no network: the next connection tries again
    }
  }
}

function clearStorageExcept(keep: string[]) {
  const kept = keep.map((key) => [key, localStorage.getItem(key)] as const);
  localStorage.clear();
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
}

async function unsubscribeFromPush() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const subscription = await registration?.pushManager.getSubscription();
    await subscription?.unsubscribe();
  } catch {
    // No service worker or no push support: nothing was subscribed.
  }
}
