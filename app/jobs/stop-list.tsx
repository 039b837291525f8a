import { Link } from "@remix-run/react";
import { useState, type DragEvent, type ReactNode } from "react";
import { keepsFixed, moveBy, moveTo, sameOrder } from "./stop-order";
import { windowText } from "../../shared/units/clock";
import { useWorkspaceClock } from "../reports/use-workspace-time-zone";
import { isOverForGood, stopStatusWords } from "./status";

/** What a numbered stop list shows of a job. */
export interface ListedStop {
  id: string;
  title: string;
  status: string;
  late?: boolean;
  /** When the vehicle left an arrived stop (it then says so instead of "Arrived"). */
  departedAt?: number | null;
  windowStart?: string | null;
  windowEnd?: string | null;
  /** The job's day: with it, the window names the zone for a reader elsewhere. */
  date?: string;
}

/**
 * A vehicle's stops, numbered in the order it visits them. With `onReorder`, a dispatcher drags a
 * stop onto another's place (native HTML5 drag and drop: a mouse on a desktop, no library; ADR
 * 0053) or moves it a step with its arrow buttons, which keyboards, screen readers and phones use
 * (touch screens fire no HTML5 drag events). `onReorder` gets the whole new order of ids. A
 * completed or cancelled stop keeps its place (the server refuses to move it): it cannot be moved
 * or dragged, and no other stop moves past it.
 */
export function StopList<S extends ListedStop>({
  label,
  stops,
  onReorder,
  openHref,
  extra,
}: {
  label: string;
  stops: readonly S[];
  onReorder?: (ids: string[]) => void;
  /** With it, a stop's title is a link to its story (the job detail): the page's address with `?job=`. */
  openHref?: (id: string) => string;
  /** More of a stop's row: its actions (assign, open). */
  extra?: (stop: S) => ReactNode;
}) {
  const ids = stops.map((s) => s.id);
  const fixed = new Set(stops.filter((s) => isOverForGood(s.status)).map((s) => s.id));
  const reorder = (next: string[]) => {
    if (onReorder && !sameOrder(next, ids) && keepsFixed(ids, next, fixed)) onReorder(next);
  };
  const { over, dragProps } = useDragToReorder(ids, reorder);
  return (
    <ol className="stop-list" aria-label={label}>
      {stops.map((stop, index) => (
        <li
          key={stop.id}
          className={`stop-row${over === index ? " drop-target" : ""}`}
          data-status={stop.status}
          data-late={stop.late || undefined}
          draggable={Boolean(onReorder) && !fixed.has(stop.id)}
          {...dragProps(index, stop.id)}
        >
          <StopLine stop={stop} number={index + 1} openHref={openHref} />
          {onReorder ? (
            <MoveButtons
              title={stop.title}
              canMove={(step) =>
                keepsFixed(ids, moveBy(ids, index, step), fixed) && !sameOrder(moveBy(ids, index, step), ids)
              }
              onMove={(step) => reorder(moveBy(ids, index, step))}
            />
          ) : null}
          {extra?.(stop)}
        </li>
      ))}
    </ol>
  );
}

/** Native drag and drop over the rows: which row is dragged, which one it hovers, and the drop. */
function useDragToReorder(ids: string[], reorder: (next: string[]) => void) {
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const end = () => {
    setDragged(null);
    setOver(null);
  };
  const dragProps = (index: number, id: string) => ({
    onDragStart: (e: DragEvent) => {
      e.dataTransfer.effectAllowed = "move";
      e.dataTransfer.setData("text/plain", id);
      setDragged(index);
    },
    onDragOver: (e: DragEvent) => {
      if (dragged === null) return;
      e.preventDefault();
      setOver(index);
    },
    onDragEnd: end,
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      if (dragged !== null) reorder(moveTo(ids, dragged, index));
      end();
    },
  });
  return { over, dragProps };
}

function StopLine({ stop, number, openHref }: { stop: ListedStop; number: number; openHref?: (id: string) => string }) {
  const window = windowText(stop.windowStart, stop.windowEnd, useWorkspaceClock(), stop.date);
  return (
    <>
      <span className={`stop-number ${stop.status}${stop.late ? " late" : ""}`} aria-hidden>
        {number}
      </span>
      <span className="stop-text">
        {openHref ? (
          // Not draggable itself, so a drag that starts on it moves the row (a button would not let it).
          <Link to={openHref(stop.id)} replace preventScrollReset draggable={false} className="stop-title stop-open">
            {stop.title}
          </Link>
        ) : (
          <span className="stop-title">{stop.title}</span>
        )}
        <span className="muted">
          {[stopStatusWords(stop), stop.late ? "Late" : "", window].filter(Boolean).join(" · ")}
        </span>
      </span>
    </>
  );
}

function MoveButtons({
  title,
  canMove,
  onMove,
}: {
  title: string;
  /** Off at either end, for a finished stop, and past one. */
  canMove: (step: -1 | 1) => boolean;
  onMove: (step: -1 | 1) => void;
}) {
  return (
    <span className="stop-move">
      <button
        type="button"
        className="button icon"
        aria-label={`Move ${title} earlier`}
        disabled={!canMove(-1)}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="button icon"
        aria-label={`Move ${title} later`}
        disabled={!canMove(1)}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
    </span>
  );
}
