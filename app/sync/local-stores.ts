import { storeName } from "./store-name";
import type { SyncClient } from "./sync-client";

export { storeName };

/**
 * The local stores open in this page (docs/decisions/0003-sync.md), each in its sync worker
 * (app/sync/sync-client.ts): a store is never dropped under an open instance (that leaves
 * Replicache reading a database that is gone: "Missing head main"), and a new instance of a name
 * is created only once the previous one has finished closing.
 */
const open = new Map<string, SyncClient>();
const closing = new Map<string, Promise<void>>();

/** Resolves once no instance of `name` is open or closing in this page. */
export async function whenClosed(name: string): Promise<void> {
  await closing.get(name);
}

export function registerOpen(name: string, client: SyncClient) {
  open.set(name, client);
}

/** Closes the instance: its worker closes Replicache and ends. */
export function closeStore(name: string, client: SyncClient): Promise<void> {
  if (open.get(name) === client) open.delete(name);
  const done = client.close().finally(() => {
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
      const client = open.get(name);
      if (client) await closeStore(name, client);
      await whenClosed(name);
      try {
        await dropDatabase(makeIDBName(name, SCHEMA_VERSION));
      } catch (error) {
        console.warn(`Could not delete the local store ${name}`, error);
      }
    }),
  );
}
