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
    if (navigationType === "POP") element.scrollTop = positions.get(location.key) ?? 0;
    else if (newPage) element.scrollTop = 0;
  }, [scroller, location.key, location.pathname, navigationType]);
}
