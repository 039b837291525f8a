import { moveBy } from "./stop-order";
import { isFinished } from "./status";
import { orderAfterDrop, stopRange, type TimelineStop } from "./timeline";

type Stop = TimelineStop & { id: string; title: string; status: string };
type Row = { id: string; name: string; stops: readonly Stop[] };

/**
 * The selected stop of the day timeline and what can be done with it without dragging (phones,
 * keyboards, screen readers): a step earlier or later in its vehicle's order, onto the vehicle of
 * the row above or below (placed there by its window), and Open when the page offers a detail.
 * A finished stop is not moved.
 */
export function TimelineMoveBar({
  routes,
  selected,
  onClose,
  onReorder,
  onOpen,
}: {
  routes: readonly Row[];
  selected: string | null;
  onClose: () => void;
  onReorder?: (vehicleId: string, jobIds: string[]) => void;
  onOpen?: (jobId: string) => void;
}) {
  const rowIndex = routes.findIndex((r) => r.stops.some((s) => s.id === selected));
  const row = routes[rowIndex];
  const index = row?.stops.findIndex((s) => s.id === selected) ?? -1;
  const stop = row?.stops[index];
  if (!row || !stop) return null;
  const ids = row.stops.map((s) => s.id);
  const movable = Boolean(onReorder) && !isFinished(stop.status);
  const step = (by: -1 | 1) => onReorder?.(row.id, moveBy(ids, index, by));
  const toRow = (other: Row) =>
    onReorder?.(other.id, orderAfterDrop(other.stops, stop.id, stopRange(stop)?.start ?? Infinity));
  const above = routes[rowIndex - 1];
  const below = routes[rowIndex + 1];
  return (
    <div className="timeline-move-bar" role="group" aria-label={`Selected stop: ${stop.title}`}>
      <span className="timeline-move-title">
        <strong>
          {index + 1}. {stop.title}
        </strong>{" "}
        <span className="muted">· {row.name}</span>
      </span>
      {onOpen ? (
        <button type="button" className="button" onClick={() => onOpen(stop.id)}>
          Open
        </button>
      ) : null}
      {movable ? (
        <MoveButtons
          first={index === 0}
          last={index === ids.length - 1}
          above={above}
          below={below}
          onStep={step}
          onToRow={toRow}
        />
      ) : null}
      <button type="button" className="button icon" aria-label="Close the selected stop" onClick={onClose}>
        ×
      </button>
    </div>
  );
}

function MoveButtons({
  first,
  last,
  above,
  below,
  onStep,
  onToRow,
}: {
  first: boolean;
  last: boolean;
  above: Row | undefined;
  below: Row | undefined;
  onStep: (by: -1 | 1) => void;
  onToRow: (row: Row) => void;
}) {
  return (
    <>
      <button type="button" className="button" disabled={first} onClick={() => onStep(-1)}>
        Earlier
      </button>
      <button type="button" className="button" disabled={last} onClick={() => onStep(1)}>
        Later
      </button>
      {above ? (
        <button type="button" className="button" onClick={() => onToRow(above)}>
          ↑ To {above.name}
        </button>
      ) : null}
      {below ? (
        <button type="button" className="button" onClick={() => onToRow(below)}>
          ↓ To {below.name}
        </button>
      ) : null}
    </>
  );
}
