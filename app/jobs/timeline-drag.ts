import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from "react";
import { sameOrder } from "./stop-order";
import { minuteAt, orderAfterDrop, stopRange, type TimelineStop } from "./timeline";

type Row = { id: string; stops: readonly (TimelineStop & { id: string })[] };
type Span = { start: number; end: number };

/** A stop being dragged on the day timeline, as drawn: how far it moved and the row under the pointer. */
export interface DragState {
  jobId: string;
  dx: number;
  dy: number;
  /** Past the few pixels that tell a drag from a click. */
  moved: boolean;
  overRow: string | null;
}

export interface StopDrag {
  state: DragState | null;
  start: (e: ReactPointerEvent<HTMLElement>, jobId: string, rowId: string) => void;
  /** Whether the click now arriving ends a drag (and so must not select the stop). */
  justDropped: () => boolean;
}

const CLICK_SLOP_PX = 4;

/**
 * Dragging a stop of the day timeline with a mouse or a pen (pointer events; touch scrolls the
 * timeline instead, and phones move stops with the buttons): onto another vehicle's row to give
 * it that vehicle, at another time to change its place in the order (before the first stop whose
 * window starts later). Dropped, it calls `onReorder` with the target vehicle's whole new order,
 * and nothing when the order is the same.
 */
export function useStopDrag(
  scroller: RefObject<HTMLElement>,
  span: Span,
  rows: readonly Row[],
  onReorder: ((vehicleId: string, jobIds: string[]) => void) | undefined,
): StopDrag {
  const [state, setState] = useState<DragState | null>(null);
  const grab = useRef<{ jobId: string; x: number; y: number; offset: number } | null>(null);
  const dropped = useRef(false);
  const latest = useRef({ rows, span, onReorder });
  latest.current = { rows, span, onReorder };

  // The window's listeners live for one drag: from the press to the release.
  const dragging = state !== null;
  useEffect(() => {
    if (!dragging) return;
    const move = (e: PointerEvent) => {
      const g = grab.current;
      if (!g) return;
      const dx = e.clientX - g.x;
      const dy = e.clientY - g.y;
      const moved = Math.hypot(dx, dy) > CLICK_SLOP_PX;
      setState({ jobId: g.jobId, dx, dy, moved, overRow: moved ? rowAt(scroller.current, e.clientY) : null });
    };
    const up = (e: PointerEvent) => {
      const g = grab.current;
      grab.current = null;
      setState(null);
      if (!g || Math.hypot(e.clientX - g.x, e.clientY - g.y) <= CLICK_SLOP_PX) return;
      dropped.current = true;
      setTimeout(() => (dropped.current = false), 0);
      drop(scroller.current, latest.current, g, e);
    };
    const cancel = () => {
      grab.current = null;
      setState(null);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
  }, [dragging, scroller]);

  const start = (e: ReactPointerEvent<HTMLElement>, jobId: string, rowId: string) => {
    if (!latest.current.onReorder || e.pointerType === "touch" || e.button !== 0) return;
    const grabbed = minuteUnder(scroller.current, rowId, e.clientX, span);
    const stop = rows.find((r) => r.id === rowId)?.stops.find((s) => s.id === jobId);
    const startMinute = stop ? (stopRange(stop)?.start ?? grabbed) : grabbed;
    grab.current = { jobId, x: e.clientX, y: e.clientY, offset: grabbed - startMinute };
    setState({ jobId, dx: 0, dy: 0, moved: false, overRow: null });
  };

  return { state, start, justDropped: () => dropped.current };
}

/** The row whose box holds the height `y` on screen. */
function rowAt(box: HTMLElement | null, y: number): string | null {
  for (const row of box?.querySelectorAll<HTMLElement>("[data-row-id]") ?? []) {
    const r = row.getBoundingClientRect();
    if (y >= r.top && y <= r.bottom) return row.dataset.rowId ?? null;
  }
  return null;
}

/** The minute of the day under `x` on that row's track. */
function minuteUnder(box: HTMLElement | null, rowId: string, x: number, span: Span): number {
  const track = box?.querySelector<HTMLElement>(`[data-row-id="${CSS.escape(rowId)}"] .timeline-track`);
  const r = track?.getBoundingClientRect();
  return r && r.width > 0 ? minuteAt((x - r.left) / r.width, span) : span.start;
}

function drop(
  box: HTMLElement | null,
  { rows, span, onReorder }: { rows: readonly Row[]; span: Span; onReorder?: (v: string, ids: string[]) => void },
  g: { jobId: string; offset: number },
  e: PointerEvent,
) {
  const rowId = rowAt(box, e.clientY);
  const row = rows.find((r) => r.id === rowId);
  if (!row || !onReorder) return;
  const minute = minuteUnder(box, row.id, e.clientX, span) - g.offset;
  const next = orderAfterDrop(row.stops, g.jobId, minute);
  if (
    !sameOrder(
      next,
      row.stops.map((s) => s.id),
    )
  )
    onReorder(row.id, next);
}
