import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { markStartup } from "../lib/startup-marks";
import { ClientStore } from "../store/client-store";
import { readStoredToken, useSession } from "../session/session";
import { isNextBuild } from "./build-mutators";
import { closeStore, registerOpen, storeName, whenClosed } from "./local-stores";
import type { SyncClient, SyncClientOptions } from "./sync-client";
import type * as SyncClientModule from "./sync-client";
import { SyncHealth } from "./sync-health";

/**
 * The sync client is loaded only once a session with a workspace exists, so the public pages
 * (/login and the other account screens) do not download it; Replicache and partysocket are
 * loaded by its worker, never by the page.
 */
const loadSyncClient = () => import("./sync-client");
// With a stored token the client will be wanted as soon as the session is known: ask for it now,
// beside the session check, rather than one round trip after it (docs/decisions/0054).
if (typeof window !== "undefined" && readStoredToken()) void loadSyncClient();

export interface SyncState {
  client: SyncClient;
  store: ClientStore;
  health: SyncHealth;
}

const SyncContext = createContext<SyncState | null>(null);

type OpenSync = Pick<SyncClientOptions, "viewerId" | "workspaceId" | "token" | "nextBuild"> & {
  /** The latest session check (docs/product.md section 4). */
  refreshSession: () => Promise<void>;
};

/** A sync client for one viewer's workspace, with its store and health, told what to do about the session. */
function createSync(
  SyncClient: typeof SyncClientModule.SyncClient,
  { refreshSession, token, ...open }: OpenSync,
): SyncState {
  const store = new ClientStore();
  const health = new SyncHealth();
  const client = new SyncClient({
    ...open,
    token,
    store,
    health,
    // On a 401: check the session again (a rejected token signs the user out silently); go on
    // with the token only if it is still this browser's session.
    reauthenticate: async () => {
      await refreshSession();
      return readStoredToken() === token ? token : null;
    },
    // The room closed the socket because this session ended (signed out elsewhere, "sign out
    // everywhere", a password reset): check it now, so this browser signs out at once.
    onSessionEnded: () => void refreshSession(),
    // An edit the viewer's role does not allow (docs/decisions/0018): the server recorded it
    // without effects, the next pull puts the value back; say why, and re-read the role.
    onRefused: (messages) => {
      // sonner is loaded by the app's pages only; this keeps it out of the public pages' bundle.
      void import("sonner").then(({ toast }) => {
        for (const message of messages) toast.error(`Your change was not saved: ${message}`);
      });
      void refreshSession();
    },
  });
  return { client, store, health };
}

/**
 * Once the session has a viewer and a workspace: the sync worker (Replicache, its IndexedDB and
 * exactly one live-update socket per workspace, off the main thread: docs/decisions/0015) and the
 * client store fed by its change lists (initial values in the first). Everything is closed when
 * the session moves to another workspace or signs out; a new instance of the same store opens only
 * after the previous one has closed.
 */
export function SyncProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const [nextBuild] = useState(isNextBuild);
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
    const name = storeName(viewerId, workspaceId);
    let cancelled = false;
    let close = () => {};
    void Promise.all([loadSyncClient(), whenClosed(name)]).then(([{ SyncClient }]) => {
      if (cancelled) return;
      const opened = createSync(SyncClient, {
        viewerId,
        workspaceId,
        token,
        nextBuild,
        refreshSession: () => refreshSession.current(),
      });
      registerOpen(name, opened.client);
      markStartup("sync client created");
      const onOnline = () => opened.client.catchUp();
      window.addEventListener("online", onOnline);
      setSync(opened);
      close = () => {
        window.removeEventListener("online", onOnline);
        void closeStore(name, opened.client);
      };
    });
    return () => {
      cancelled = true;
      close();
    };
  }, [viewerId, workspaceId, token, nextBuild]);

  return <SyncContext.Provider value={sync}>{children}</SyncContext.Provider>;
}

/** The sync client, or null before it exists (no workspace yet). */
export function useSync(): SyncState | null {
  return useContext(SyncContext);
}
