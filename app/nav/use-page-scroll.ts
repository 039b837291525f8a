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
  const mounted = useRef(false);

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
    const firstRender = !mounted.current;
    shown.current = { key: location.key, pathname: location.pathname };
    mounted.current = true;
    const element = scroller.current;
    if (!element) return;
    const remembered = positions.get(location.key);
    // A page load is a "POP", but the element has just been created at its top: writing scrollTop
    // would only force a layout before the first frame (50 ms and more on a throttled phone, ADR 0099).
    if (firstRender && !remembered) return;
    if (navigationType === "POP") return restore(element, remembered ?? 0);
    if (newPage) element.scrollTop = 0;
  }, [scroller, location.key, location.pathname, navigationType]);
}

/**
 * How long a page returned to by Back or Forward may take to grow tall enough for its position: its
 * figures may come from the network (the Fuel page's economy from the cost report), which a second
 * of frames did not always cover on a busy machine (navigation.spec, issue 57).
 */
const RESTORE_MS = 5_000;
/** What the person does to scroll (wheel, finger, scrollbar, keys): restoring stops for it. */
const PERSON_SCROLLS = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/**
 * Puts the element back at `top`; while the page is still rendering (its list from the store, a
 * lazily loaded part, figures from the network) it may not be that tall yet, and the browser would
 * stop it short: it is tried again each frame for up to RESTORE_MS, unless the person scrolls
 * first. Returns the cancel.
 */
function restore(element: HTMLElement, top: number): () => void {
  element.scrollTop = top;
  const until = performance.now() + RESTORE_MS;
  let handle = 0;
  const stop = () => {
    cancelAnimationFrame(handle);
    for (const input of PERSON_SCROLLS) element.removeEventListener(input, stop);
  };
  const retry = () => {
    if (Math.abs(element.scrollTop - top) <= 1 || performance.now() > until) return stop();
    element.scrollTop = top;
    handle = requestAnimationFrame(retry);
  };
  for (const input of PERSON_SCROLLS) element.addEventListener(input, stop, { passive: true });
  handle = requestAnimationFrame(retry);
  return stop;
}
