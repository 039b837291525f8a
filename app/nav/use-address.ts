import { useSyncExternalStore } from "react";

/** The part of Remix's router (RemixBrowser keeps it on `window.__remixRouter`) read here. */
interface RouterSubscriptions {
  subscribe(changed: () => void): () => void;
}

const router = () => (window as unknown as { __remixRouter?: RouterSubscriptions }).__remixRouter;

/**
 * The router tells its subscribers of a navigation in the same task as it writes the address (a
 * link), and the browser fires popstate when it has (Back, Forward).
 */
const subscribe = (changed: () => void) => {
  const unsubscribe = router()?.subscribe(changed);
  window.addEventListener("popstate", changed);
  return () => {
    unsubscribe?.();
    window.removeEventListener("popstate", changed);
  };
};

/**
 * The page the address bar shows, as soon as it shows it; null in the server render.
 *
 * Remix renders a navigation's new page in a transition: React renders it in slices, between
 * which the browser keeps drawing the page it is leaving, and on a phone's CPU (or while
 * mapbox-gl's long tasks run beside it) that takes frames to seconds. useLocation() says the new
 * path only when that render commits; this says it at once (an external store's change renders
 * synchronously), for what must go with the address at its first frame: the map, hidden as soon
 * as the address is another page's (issue 56).
 */
export function useAddressPathname(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => null,
  );
}
