import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { ClientStore, type StoreChange } from "../store/client-store";
import { readStoredToken, useSession } from "../session/session";
import type { Rep } from "./replicache-client";

/**
 * Replicache and partysocket are loaded only once a session with a workspace exists, so the
 * public pages (/login and the other account screens) do not download them.
 */
const loadSyncClients = () => Promise.all([import("./replicache-client"), import("./realtime")]);

export interface SyncState {
  rep: Rep;
  store: ClientStore;
}

const SyncContext = createContext<SyncState | null>(null);

/**
 * Once the session has a viewer and a workspace: the local store (Replicache), the client store
 * fed by its diffs (initial values in the first diff), and exactly one live-update socket per
 * workspace. Everything is closed when the session moves to another workspace or signs out.
 */
export function SyncProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const viewerId = session.viewer?.id;
  const workspaceId = session.workspace?.id;
  const token = session.token;
  const [sync, setSync] = useState<SyncState | null>(null);
  // The latest session check, for Replicache's 401 handling without recreating it.
  const refreshSession = useRef(session.refresh);
  refreshSession.current = session.refresh;

  useEffect(() => {
    if (!viewerId || !workspaceId || !token) {
      setSync(null);
      return;
    }
    // On a 401: check the session again (a rejected token signs the user out silently); go on
    // with the token only if it is still this browser's session.
    const reauthenticate = async () => {
      await refreshSession.current();
      return readStoredToken() === token ? token : null;
    };
    let cancelled = false;
    let close = () => {};
    void loadSyncClients().then(([{ createReplicache }, { connectRoom }]) => {
      if (cancelled) return;
      const rep = createReplicache(viewerId, workspaceId, token, reauthenticate);
      const store = new ClientStore();
      // The first sync ending (pull done, or failed offline) tells empty states they may show.
      rep.onSync = (syncing) => {
        if (!syncing) store.markPulled();
      };
      const unwatch = rep.experimentalWatch((diff) => store.apply(diff as readonly StoreChange[]), {
        initialValuesInFirstDiff: true,
      });
      // Back online: catch up and send what was edited offline now, not after the retry back-off.
      const catchUp = () => {
        if (rep.closed) return;
        void rep.pull({ now: true });
        void rep.push({ now: true });
      };
      const socket = connectRoom(workspaceId, token, { onPoke: () => void rep.pull(), onConnect: catchUp });
      const onOnline = () => {
        catchUp();
        socket.reconnect();
      };
      window.addEventListener("online", onOnline);
      setSync({ rep, store });
      close = () => {
        window.removeEventListener("online", onOnline);
        unwatch();
        socket.close();
        void rep.close();
      };
    });
    return () => {
      cancelled = true;
      close();
    };
  }, [viewerId, workspaceId, token]);

  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

/** The sync client, or null before it exists (no workspace yet). */
export function useSync(): SyncState | null {
  return useContext(SyncContext);
}
