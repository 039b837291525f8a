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
 * data and any edits still pending there. Open instances are closed first. The names are written
 * down before anything starts, and crossed off once deleted: a deletion cut short (the page reloaded
 * or closed in between) is finished by the next page of this origin (`finishDroppingStores`).
 */
export async function dropStores(viewerId: string, workspaceIds: readonly string[]): Promise<void> {
  if (workspaceIds.length === 0) return;
  const names = workspaceIds.map((workspaceId) => storeName(viewerId, workspaceId));
  writePendingDrops([...new Set([...readPendingDrops(), ...names])]);
  await dropByName(names);
}

/** Finishes deletions an earlier page started and could not complete (call once per page load). */
export async function finishDroppingStores(): Promise<void> {
  const pending = readPendingDrops();
  if (pending.length) await dropByName(pending);
}

async function dropByName(names: readonly string[]) {
  const [{ dropDatabase, makeIDBName }, { SCHEMA_VERSION }] = await Promise.all([
    import("replicache"),
    import("../../shared/sync/sync-protocol"),
  ]);
  await Promise.all(
    names.map(async (name) => {
      const client = open.get(name);
      if (client) await closeStore(name, client);
      await whenClosed(name);
      // A new instance of this name waits for the deletion, as it waits for a close.
      const dropped = dropDatabase(makeIDBName(name, SCHEMA_VERSION)).then(
        () => writePendingDrops(readPendingDrops().filter((pending) => pending !== name)),
        (error: unknown) => console.warn(`Could not delete the local store ${name}`, error),
      );
      closing.set(name, dropped);
      await dropped;
      if (closing.get(name) === dropped) closing.delete(name);
    }),
  );
}

/** The stores whose deletion has started and not been confirmed, kept in localStorage (names only). */
export const PENDING_DROPS_KEY = "las-stores-to-delete";
function readPendingDrops(): string[] {
  try {
    const saved = JSON.parse(localStorage.getItem(PENDING_DROPS_KEY) ?? "[]") as unknown;
    return Array.isArray(saved) ? saved.filter((name): name is string => typeof name === "string") : [];
  } catch {
    return [];
  }
}
function writePendingDrops(names: string[]) {
  if (names.length) localStorage.setItem(PENDING_DROPS_KEY, JSON.stringify(names));
  else localStorage.removeItem(PENDING_DROPS_KEY);
}
