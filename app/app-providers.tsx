import { Provider as TooltipProvider } from "@radix-ui/react-tooltip";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import { LoadingScreen } from "./components/loading-screen";
import { SessionProvider, useSession } from "./session/session";

/** SPEC.md section 9: toasts 4 s, 3 visible, 356 px wide; tooltips 700 ms, skip 300 ms. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <TooltipProvider delayDuration={700} skipDelayDuration={300}>
      <SessionProvider>
        <StartupGate>{children}</StartupGate>
      </SessionProvider>
      <Toaster duration={4000} visibleToasts={3} style={{ width: 356 }} />
    </TooltipProvider>
  );
}

/** Shows "Loading..." until the stored session has been read and checked. */
function StartupGate({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.loading) return <LoadingScreen />;
  return <>{children}</>;
}
