import { useRef, useState, type PointerEvent, type ReactNode } from "react";

/** How far (px) a drag on the handle must go before it moves the sheet. */
const DRAG_THRESHOLD = 24;

/**
 * The map's side panel, which on a phone (below 640 px, styles.css) is a sheet over the bottom of
 * the map: down, it leaves the map at least half the screen; up, it takes most of it. The handle
 * is a button (tap or Enter toggles, aria-expanded says which) that can also be dragged up or down
 * with a finger. On wider screens the handle is hidden and the panel floats at the left as before.
 */
export function MapSheet({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  const [up, setUp] = useState(false);
  const dragStart = useRef<number | null>(null);
  const dragged = useRef(false);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    dragStart.current = event.clientY;
    dragged.current = false;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    if (dragStart.current === null) return;
    const delta = event.clientY - dragStart.current;
    if (Math.abs(delta) < DRAG_THRESHOLD) return;
    dragged.current = true;
    setUp(delta < 0);
  };
  const onPointerUp = () => {
    dragStart.current = null;
  };

  return (
    <aside className={`${className} sheet ${up ? "sheet-up" : "sheet-down"}`} aria-label={label}>
      <button
        type="button"
        className="sheet-handle"
        aria-expanded={up}
        aria-label={up ? "Pull the sheet down" : "Pull the sheet up"}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        // A drag already moved the sheet; only a tap (or Enter/Space) toggles it.
        onClick={() => (dragged.current ? (dragged.current = false) : setUp((u) => !u))}
      >
        <span className="sheet-grip" aria-hidden />
      </button>
      {children}
    </aside>
  );
}
