import { useCallback, useSyncExternalStore } from "react";
import { useOnline } from "../lib/use-online";
import { useSync } from "./sync-provider";

const never = () => () => undefined;

/**
 * Whether the server can be reached: the browser says it is online and the store's last sync
 * request got an answer. A phone can say "online" with no way through (a weak signal, a captive
 * portal, or a browser whose offline state lags), and pages that need the server should then say
 * so rather than fail their requests (issue 57).
 */
export function useReachable(): boolean {
  const online = useOnline();
  const health = useSync()?.health;
  // One subscription per store, not one per render.
  const subscribe = useCallback((changed: () => void) => health?.subscribe(changed) ?? never(), [health]);
  const problem = useSyncExternalStore(
    subscribe,
    () => health?.problem ?? null,
    () => null,
  );
  return online && problem !== "offline";
}
