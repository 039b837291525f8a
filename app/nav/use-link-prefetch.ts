import { useReachable } from "../sync/use-reachable";

/**
 * How links preload their page's code: on intent (hover, focus) while the server can be reached,
 * never otherwise. Remix reads a route's module to preload its styles, and a module that cannot
 * be fetched makes it reload the whole page: offline, before the service worker holds the app's
 * code, pointing at a link to a page not yet opened turned the open tab into the browser's "no
 * internet" page (e2e/offline-navigation.spec.ts, flaky on a busy machine for that reason).
 */
export function useLinkPrefetch(): "intent" | "none" {
  return useReachable() ? "intent" : "none";
}
