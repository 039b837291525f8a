import { useEffect, useRef, useState, type KeyboardEvent, type UIEvent } from "react";

/**
 * A virtualised list that the arrow keys walk. Only the rows in view (plus `overscan` on each
 * side) are rendered, so 10,000 vehicles cost what 30 do. Arrow keys move from the list's search
 * box into the rows and between them; a row outside the rendered window is scrolled into it
 * first, then focused. Rows carry `data-index` and call `onRowFocus(index)` when focused.
 */
/** What each rendered row of a virtual list needs: where it stands, and what to say when focused. */
export interface VirtualRowProps {
  index: number;
  onFocus: (index: number) => void;
}

export function useVirtualList(count: number, rowHeight: number, overscan: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(800);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight || 800));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);

  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  // The row keys aim at, not the focused one: focus lags a render behind when keys come fast.
  const cursor = useRef(-1);
  // A move not yet carried out: keys arriving meanwhile still land on the search box, and must
  // step on from the cursor instead of starting over at the first row.
  const moving = useRef(false);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    if (!count) return;
    e.preventDefault();
    const fromSearch = e.currentTarget instanceof HTMLInputElement && !moving.current;
    const next = fromSearch ? 0 : Math.min(count - 1, Math.max(0, cursor.current + (e.key === "ArrowDown" ? 1 : -1)));
    cursor.current = next;
    const el = scroller.current;
    if (el && (next * rowHeight < el.scrollTop || (next + 1) * rowHeight > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, next * rowHeight - el.clientHeight / 2);
    }
    // A row already rendered takes focus now, so the next key lands on it: waiting for a render
    // lets keys outrun focus, and the row they last landed on may be virtualised away meanwhile
    // (focus then falls to the page and later keys are lost).
    const row = el?.querySelector<HTMLElement>(`[data-index="${next}"]`);
    if (row) {
      moving.current = false;
      row.focus();
      return;
    }
    moving.current = true;
    setFocusIndex(next);
  };
  useEffect(() => {
    if (focusIndex === null) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-index="${focusIndex}"]`);
    if (!row) return; // not rendered yet: the scroll's re-render runs this again
    row.focus();
    moving.current = false;
    setFocusIndex(null);
  }, [focusIndex, first, last]);

  return {
    scroller,
    first,
    last,
    onKeyDown,
    onScroll: (e: UIEvent<HTMLElement>) => setScrollTop(e.currentTarget.scrollTop),
    onRowFocus: (index: number) => (cursor.current = index),
  };
}
