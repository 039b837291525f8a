import { useEffect, useState, useSyncExternalStore } from "react";
import { PHOTO_MAX_BYTES, PHOTO_TYPES, photoIdFor } from "../../shared/maintenance/photos";
import { apiErrorOf, http, HTTPError } from "../lib/http";
import { afterNextPaint } from "../lib/after-next-paint";
import { allPending, deletePending, getPending, putPending, type PendingPhoto } from "./pending-photos";

/**
 * The browser's photo helper (docs/decisions/0030), for issues and inspections alike:
 *
 *   const id = await addPhoto(file, workspaceId, userId); // the server's id at once, online or not
 *   mutate("createIssue", { ..., photoIds: [id] }); // a record may name it before it is uploaded
 *   usePhotoUrl(id)                                 // shows it, from this device or the server
 *
 * The components of app/photos/photo-picker.tsx wrap these: <PhotoPicker ids onChange> (camera or
 * file, thumbnails), <PhotoStrip ids> and <PhotoThumb id>.
 *
 * `addPhoto` makes a reference (a UUID), works out the id the server will give the photo from it
 * (shared/maintenance/photos.ts photoIdFor: the workspace, the uploader and the reference; docs/decisions/0042),
 * keeps the photo in IndexedDB under that id and uploads it with `POST /api/photos?ref=<ref>`;
 * offline, or when the upload fails for a reason that can pass (network, 5xx, the upload rate or
 * the workspace's quota), it stays queued and `startPhotoUploads` sends it when it can.
 */
export class PhotoRejected extends Error {}

/** Checks the file as the server will (type and size), so a refusal is immediate and clear. */
export function checkPhoto(file: Blob): void {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type))
    throw new PhotoRejected("Choose a JPEG, PNG or WebP photo");
  if (file.size > PHOTO_MAX_BYTES) throw new PhotoRejected("A photo can be at most 10 MB");
}

/** Queues the photo and starts its upload; resolves with its id once it is safely on this device. */
export async function addPhoto(file: Blob, workspaceId: string, userId: string): Promise<string> {
  checkPhoto(file);
  const ref = crypto.randomUUID();
  const id = await photoIdFor(workspaceId, userId, ref);
  await putPending({ id, ref, blob: file, workspaceId, userId, addedAt: Date.now() });
  notify();
  void uploadPending(workspaceId, userId);
  return id;
}

/** Photos of this device still waiting for the network (for a "2 photos waiting" note). */
export function usePendingPhotoCount(): number {
  return useSyncExternalStore(
    subscribe,
    () => pendingCount,
    () => 0,
  );
}

let pendingCount = 0;
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function notify() {
  void allPending()
    .then((all) => {
      pendingCount = all.length;
      for (const l of listeners) l();
    })
    .catch(() => undefined);
}

let running: Promise<number> | null = null;

/** Uploads the photos this person queued in this workspace, one at a time; resolves with how many went up. */
export function uploadPending(workspaceId: string, userId: string): Promise<number> {
  running ??= drain(workspaceId, userId).finally(() => {
    running = null;
    notify();
  });
  return running;
}

async function drain(workspaceId: string, userId: string): Promise<number> {
  let sent = 0;
  for (const photo of await allPending()) {
    if (photo.workspaceId !== workspaceId) continue;
    if (!photo.ref) {
      // Queued by a build before issue 39 under an id of its own choosing, which the server no longer takes.
      console.warn(`photo ${photo.id} was queued by an older version of the app and cannot be uploaded; dropped`);
      await deletePending(photo.id);
      continue;
    }
    // Only its uploader's session gives it the id its records name.
    if (photo.userId !== userId) continue;
    const outcome = await uploadOne(photo, photo.ref);
    if (outcome === "retry-later") break;
    await deletePending(photo.id);
    if (outcome === "sent") sent++;
  }
  return sent;
}

async function uploadOne(photo: PendingPhoto, ref: string): Promise<"sent" | "refused" | "retry-later"> {
  if (typeof navigator !== "undefined" && !navigator.onLine) return "retry-later";
  try {
    await http.post(`photos?ref=${encodeURIComponent(ref)}`, {
      body: photo.blob,
      headers: { "Content-Type": photo.blob.type },
      timeout: 60_000,
      retry: 0,
    });
    return "sent";
  } catch (error) {
    // 400, 413, 415: it will never be accepted. The workspace's quota (409 limit_reached) may make room,
    // and anything else (offline, 5xx, 429, 401 while signing in) may pass later.
    if (error instanceof HTTPError && (await neverAccepted(error))) {
      console.warn(`photo ${photo.id} refused by the server (${error.response.status}); dropped`);
      return "refused";
    }
    return "retry-later";
  }
}

async function neverAccepted(error: HTTPError): Promise<boolean> {
  const status = error.response.status;
  if (status === 409) return (await apiErrorOf(error))?.code !== "limit_reached";
  return [400, 413, 415].includes(status);
}

/**
 * Uploads what is queued now, whenever the browser comes back online or `serverReached` says a
 * request got through, and every minute while anything waits (a flaky network that never goes
 * "offline"). Returns the stop function.
 */
export function startPhotoUploads(
  workspaceId: string,
  userId: string,
  serverReached?: (listener: () => void) => () => void,
): () => void {
  const go = () => void uploadPending(workspaceId, userId).catch(() => undefined);
  // Reading the queue opens IndexedDB: not in the task that draws the page's first frame (ADR 0099).
  const cancelFirst = afterNextPaint(go);
  window.addEventListener("online", go);
  // The store's sync got through again: so can the photos, whether or not the browser ever said
  // it was offline (its "online" event is not to be relied on: issue 57).
  const unsubscribe = serverReached?.(() => {
    if (pendingCount > 0) go();
  });
  const timer = window.setInterval(() => {
    if (pendingCount > 0) go();
  }, 60_000);
  return () => {
    cancelFirst();
    window.removeEventListener("online", go);
    window.clearInterval(timer);
    unsubscribe?.();
  };
}

const urls = new Map<string, Promise<string | null>>();

/** An object URL for the photo: this device's copy while queued, else the server's (members only). */
export function photoUrl(id: string): Promise<string | null> {
  let url = urls.get(id);
  if (!url) {
    url = loadPhoto(id);
    urls.set(id, url);
    // A failure (offline, not uploaded yet from another device) is asked again next time.
    void url.then((u) => (u ? undefined : urls.delete(id)));
  }
  return url;
}

async function loadPhoto(id: string): Promise<string | null> {
  const pending = await getPending(id).catch(() => undefined);
  if (pending) return URL.createObjectURL(pending.blob);
  try {
    return URL.createObjectURL(await http.get(`photos/${encodeURIComponent(id)}`, { retry: 0 }).blob());
  } catch {
    return null;
  }
}

/** The photo's URL for an <img>, or null while loading or when it cannot be shown (yet). */
export function usePhotoUrl(id: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void photoUrl(id).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [id]);
  return url;
}
