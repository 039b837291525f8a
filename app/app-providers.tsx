import { Provider as TooltipProvider } from "@radix-ui/react-tooltip";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import { LoadingScreen } from "./components/loading-screen";
import { SessionProvider, useSession } from "./session/session";
import { SyncProvider, useSync } from "./sync/sync-provider";

/** SPEC.md section 9: toasts 4 s, 3 visible, 356 px wide; tooltips 700 ms, skip 300 ms. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider delayDuration={700} skipDelayDuration={300}>
      <SessionProvider>
        <SyncProvider>
          <StartupGate>{children}</StartupGate>
        </SyncProvider>
      </SessionProvider>
      <Toaster duration={4000} visibleToasts={3} style={{ width: 356 }} />
    </TooltipProvider>
  );
}

/**
 * SPEC.md section 2: "Loading..." until the stored session has been read and checked and, for a
 * session with a workspace, the sync client exists.
 */
function StartupGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const sync = useSync();
  if (session.loading || (session.workspace && !sync)) return <LoadingScreen />;
  return <>{children}</>;
}
