import type { ReactNode } from "react";
import { LoadingScreen } from "./components/loading-screen";
import { markStartup } from "./lib/startup-marks";
import { SessionProvider, useSession } from "./session/session";
import { SyncProvider, useSync } from "./sync/sync-provider";

/** The session and, once there is a workspace, the sync client, behind the startup gate. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <SessionProvider>
      <SyncProvider>
        <StartupGate>{children}</StartupGate>
      </SyncProvider>
    </SessionProvider>
  );
}

/**
 * docs/product.md section 2: "Loading..." until the stored session has been read and checked and, for a
 * session with a workspace, the sync client exists.
 */
function StartupGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const sync = useSync();
  if (session.loading || (session.workspace && !sync)) return <LoadingScreen />;
  markStartup("startup gate open");
  return <>{children}</>;
}
