import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MutableRefObject,
  type RefObject,
  type UIEvent,
} from "react";

/** What each rendered row of a virtual list needs: where it stands, and what to say when focused. */
export interface VirtualRowProps {
  index: number;
  onFocus: (index: number) => void;
}

/** The element's height as it is laid out, kept current as it resizes (800 px before it is). */
function useHeight(ref: RefObject<HTMLElement>): number {
  const [height, setHeight] = useState(800);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight || 800));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return height;
}

/**
 * Focuses the cursor's row once a move that waited for it has rendered it. A layout effect: focus
 * moves in the same commit that rendered the row, before the next key can arrive (a passive effect
 * runs after paint, and a key in between lands on the page and is lost).
 */
function useFocusAfterMove(
  scroller: RefObject<HTMLElement>,
  cursor: MutableRefObject<number>,
  moving: MutableRefObject<boolean>,
  renders: unknown[],
) {
  useLayoutEffect(() => {
    // Focus the cursor's row, not the row asked for when the move began: keys that came since
    // have moved the cursor on, and focusing an older row would pull it back (a key lost).
    if (!moving.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-index="${cursor.current}"]`);
    if (!row) return; // not rendered yet: the scroll's re-render runs this again
    moving.current = false;
    row.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the renders that may have drawn the row
  }, renders);
}

/**
 * A virtualised list that the arrow keys walk. Only the rows in view (plus `overscan` on each
 * side) are rendered, so 10,000 vehicles cost what 30 do. Arrow keys move from the list's search
 * box into the rows and between them; a row outside the rendered window is scrolled into it
 * first, then focused. Rows carry `data-index` and call `onRowFocus(index)` when focused.
 */
export function useVirtualList(count: number, rowHeight: number, overscan: number) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useHeight(scroller);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewport) / rowHeight) + overscan);

  // The row keys aim at, not the focused one: focus lags a render behind when keys come fast.
  const cursor = useRef(-1);
  // A move not yet carried out (its row is not rendered): keys arriving meanwhile still land on
  // the search box, and must step on from the cursor instead of starting over at the first row.
  const moving = useRef(false);
  // Bumped to ask for a render after a move whose row is not rendered yet.
  const [moves, setMoves] = useState(0);
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
      // The window follows now, in this key's own render, not at the scroll event: on a busy
      // machine that event's render comes late, keys outrun it, and when it lands it unmounts
      // the row that still held focus (focus falls to the page, and the next keys are lost).
      setScrollTop(el.scrollTop);
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
    setMoves((n) => n + 1);
  };
  useFocusAfterMove(scroller, cursor, moving, [moves, first, last]);

  return {
    scroller,
    first,
    last,
    onKeyDown,
    onScroll: (e: UIEvent<HTMLElement>) => setScrollTop(e.currentTarget.scrollTop),
    onRowFocus: (index: number) => (cursor.current = index),
  };
}
