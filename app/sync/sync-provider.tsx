import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { ClientStore, type StoreChange } from "../store/client-store";
import { readStoredToken, useSession } from "../session/session";
import { buildMutators } from "./build-mutators";
import { closeStore, registerOpen, storeName, whenClosed } from "./local-stores";
import type { Rep } from "./replicache-client";
import { SyncHealth } from "./sync-health";

/**
 * Replicache and partysocket are loaded only once a session with a workspace exists, so the
 * public pages (/login and the other account screens) do not download them.
 */
const loadSyncClients = () => Promise.all([import("./replicache-client"), import("./realtime")]);

export interface SyncState {
  rep: Rep;
  store: ClientStore;
  health: SyncHealth;
}

const SyncContext = createContext<SyncState | null>(null);

/**
 * Once the session has a viewer and a workspace: the local store (Replicache), the client store
 * fed by its diffs (initial values in the first diff), and exactly one live-update socket per
 * workspace. Everything is closed when the session moves to another workspace or signs out; a
 * new instance of the same store opens only after the previous one has closed.
 */
export function SyncProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const [mutators] = useState(buildMutators);
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
    const name = storeName(viewerId, workspaceId);
    let cancelled = false;
    let close = () => {};
    void Promise.all([loadSyncClients(), whenClosed(name)]).then(([[{ createReplicache, pendingMutationCount }, { connectRoom }]]) => {
      if (cancelled) return;
      const health = new SyncHealth();
      const rep = createReplicache(viewerId, workspaceId, token, reauthenticate, health, mutators);
      registerOpen(name, rep);
      const store = new ClientStore();
      // Replicache pushes pending edits when new ones are made; the server applies a bounded
      // prefix per push (a week offline can be thousands), so push again after each sync while the
      // backlog keeps shrinking.
      let backlog = Infinity;
      const pushRestOfBacklog = async () => {
        const pending = await pendingMutationCount(rep);
        if (pending === null || pending === 0 || health.problem) {
          backlog = Infinity;
          return;
        }
        if (pending < backlog) {
          backlog = pending;
          void rep.push({ now: true });
        }
      };
      // The first sync ending (pull done, or failed offline) tells empty states they may show.
      rep.onSync = (syncing) => {
        if (syncing) return;
        store.markPulled();
        void pushRestOfBacklog();
      };
      const unwatch = rep.experimentalWatch((diff) => store.apply(diff as readonly StoreChange[]), {
        initialValuesInFirstDiff: true,
      });
      // Back online: catch up and send what was edited offline now, not after the retry back-off.
      const catchUp = () => {
        if (rep.closed) return;
        backlog = Infinity;
        void rep.pull({ now: true });
        void rep.push({ now: true });
      };
      const socket = connectRoom(workspaceId, token, {
        onPoke: () => void rep.pull(),
        onConnect: catchUp,
        // The room closed the socket because this session ended (signed out elsewhere, "sign out
        // everywhere", a password reset): check it now, so this browser signs out at once.
        onSessionEnded: () => void refreshSession.current(),
      });
      const onOnline = () => {
        catchUp();
        socket.reconnect();
      };
      window.addEventListener("online", onOnline);
      setSync({ rep, store, health });
      close = () => {
        window.removeEventListener("online", onOnline);
        unwatch();
        socket.close();
        void closeStore(name, rep);
      };
    });
    return () => {
      cancelled = true;
      close();
    };
  }, [viewerId, workspaceId, token, mutators]);

  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

/** The sync client, or null before it exists (no workspace yet). */
export function useSync(): SyncState | null {
  return useContext(SyncContext);
}
