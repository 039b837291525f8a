/**
 * Photos taken but not uploaded yet, kept in IndexedDB ("fleet-photos", store "pending") so they
 * survive a reload or a closed tab while the phone has no network (docs/decisions/0030, 0042).
 * Each is kept under the id the server will give it (shared/maintenance/photos.ts photoIdFor), the id records
 * already name, with the reference it is uploaded with.
 */
export interface PendingPhoto {
  id: string;
  /** The device's reference, sent as `?ref=`; absent on a photo queued by a build before issue 39. */
  ref?: string;
  blob: Blob;
  /** The workspace it was taken in and who took it: uploaded only while they are signed in to it. */
  workspaceId: string;
  userId?: string;
  addedAt: number;
}

const DB_NAME = "fleet-photos";
const STORE = "pending";

let opening: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      opening = null;
      reject(req.error ?? new Error("IndexedDB did not open"));
    };
  });
  return opening;
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error ?? new Error("IndexedDB write failed"));
    tx.onabort = () => reject(tx.error ?? new Error("IndexedDB write aborted"));
  });
}

export const putPending = (photo: PendingPhoto) => run("readwrite", (s) => s.put(photo)).then(() => undefined);
export const getPending = (id: string) =>
  run<PendingPhoto | undefined>("readonly", (s) => s.get(id) as IDBRequest<PendingPhoto | undefined>);
export const deletePending = (id: string) => run("readwrite", (s) => s.delete(id)).then(() => undefined);
export const allPending = () => run<PendingPhoto[]>("readonly", (s) => s.getAll() as IDBRequest<PendingPhoto[]>);

/** Deletes every queued photo with the database itself (sign-out: they are the signed-out person's). */
export async function deletePhotoStore(): Promise<void> {
  const db = await opening?.catch(() => null);
  db?.close();
  opening = null;
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DB_NAME);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}
