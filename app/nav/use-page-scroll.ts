import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, type RefObject } from "react";

/** Where each visited entry of the session's history was scrolled, by location key. */
const positions = new Map<string, number>();

/**
 * Scroll restoration for the signed-in app, whose pages scroll in one element (`main`, under the
 * fixed top bar), not the window, so Remix's <ScrollRestoration/> (the window's) never applies to
 * them and every page opened where the last one was left (issue 56). As <ScrollRestoration/> does
 * for the window: a newly opened page starts at its top, Back and Forward return an entry to where
 * it was. A change of the query only (a filter, a selection on the map) keeps the position.
 */
export function usePageScroll(scroller: RefObject<HTMLElement>) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const shown = useRef({ key: location.key, pathname: location.pathname });

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // Read at each scroll, not when leaving: by then the next page may already have shortened the element.
    const remember = () => positions.set(shown.current.key, element.scrollTop);
    element.addEventListener("scroll", remember, { passive: true });
    return () => element.removeEventListener("scroll", remember);
  }, [scroller]);

  // Before the browser draws the new page, so it never shows at the last page's position.
  useLayoutEffect(() => {
    const newPage = location.pathname !== shown.current.pathname;
    shown.current = { key: location.key, pathname: location.pathname };
    const element = scroller.current;
    if (!element) return;
    if (navigationType === "POP") return restore(element, positions.get(location.key) ?? 0);
    if (newPage) element.scrollTop = 0;
  }, [scroller, location.key, location.pathname, navigationType]);
}

/** Frames to wait for a page returned to by Back or Forward to grow tall enough for its position. */
const RESTORE_FRAMES = 60;

/**
 * Puts the element back at `top`; while the page is still rendering (its list from the store, a
 * lazily loaded part) it may not be that tall yet, and the browser would stop it short: it is tried
 * again each frame for about a second, unless the person scrolls first. Returns the cancel.
 */
function restore(element: HTMLElement, top: number): () => void {
  element.scrollTop = top;
  let frame = 0;
  let handle = 0;
  const stop = () => {
    cancelAnimationFrame(handle);
    element.removeEventListener("wheel", stop);
    element.removeEventListener("touchstart", stop);
  };
  const retry = () => {
    if (Math.abs(element.scrollTop - top) <= 1 || ++frame > RESTORE_FRAMES) return stop();
    element.scrollTop = top;
    handle = requestAnimationFrame(retry);
  };
  element.addEventListener("wheel", stop, { passive: true });
  element.addEventListener("touchstart", stop, { passive: true });
  handle = requestAnimationFrame(retry);
  return stop;
}
