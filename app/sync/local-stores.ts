import type { Rep } from "./replicache-client";

/**
 * The browser's local stores (docs/decisions/0003-sync.md): one Replicache per viewer and
 * workspace, named `<viewerId>/<workspaceId>`. This module knows the instances open in this page,
 * so that a store is never dropped under an open instance (that leaves Replicache reading a
 * database that is gone: "Missing head main"), and a new instance of a name is created only once
 * the previous one has finished closing.
 */
export const storeName = (viewerId: string, workspaceId: string) => `${viewerId}/${workspaceId}`;

const open = new Map<string, Rep>();
const closing = new Map<string, Promise<void>>();

/** Resolves once no instance of `name` is open or closing in this page. */
export async function whenClosed(name: string): Promise<void> {
  await closing.get(name);
}

export function registerOpen(name: string, rep: Rep) {
  open.set(name, rep);
}

/** Closes the instance (after it has finished opening: closing one mid-open is what Replicache trips on). */
export function closeStore(name: string, rep: Rep): Promise<void> {
  if (open.get(name) === rep) open.delete(name);
  const done = (async () => {
    await rep.clientGroupID.catch(() => undefined);
    // A store whose database went away under it (deleted by another tab's sign-out, say) is
    // already closed as far as IndexedDB goes: Replicache then rejects with "Closed". Nothing is
    // left to release, so that is the end of it, not an error for the page.
    if (!rep.closed) await rep.close().catch((error: unknown) => console.warn(`Closing the local store ${name}:`, error));
  })().finally(() => {
    if (closing.get(name) === done) closing.delete(name);
  });
  closing.set(name, done);
  return done;
}

/**
 * Deletes the local stores of these workspaces for this viewer (sign-out, lost membership): their
 * data and any edits still pending there. Open instances are closed first.
 */
export async function dropStores(viewerId: string, workspaceIds: readonly string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  const [{ dropDatabase, makeIDBName }, { SCHEMA_VERSION }] = await Promise.all([import("replicache"), import("../../shared/sync-protocol")]);
  await Promise.all(
    workspaceIds.map(async (workspaceId) => {
      const name = storeName(viewerId, workspaceId);
      const rep = open.get(name);
      if (rep) await closeStore(name, rep);
      await whenClosed(name);
      try {
        await dropDatabase(makeIDBName(name, SCHEMA_VERSION));
      } catch (error) {
        console.warn(`Could not delete the local store ${name}`, error);
      }
    }),
  );
}
