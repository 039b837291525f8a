import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { ClientStore, type StoreChange } from "../store/client-store";
import { useSession } from "../session/session";
import { connectRoom } from "./realtime";
import { createReplicache, type Rep } from "./replicache-client";

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

  useEffect(() => {
    if (!viewerId || !workspaceId || !token) {
      setSync(null);
      return;
    }
    const rep = createReplicache(viewerId, workspaceId, () => token);
    const store = new ClientStore();
    const unwatch = rep.experimentalWatch((diff) => store.apply(diff as readonly StoreChange[]), {
      initialValuesInFirstDiff: true,
    });
    const socket = connectRoom(workspaceId, token, () => void rep.pull());
    setSync({ rep, store });
    return () => {
      unwatch();
      socket.close();
      void rep.close();
    };
  }, [viewerId, workspaceId, token]);

  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

/** The sync client, or null before it exists (no workspace yet). */
export function useSync(): SyncState | null {
  return useContext(SyncContext);
}
