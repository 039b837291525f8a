import { Link } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useStoreStatus, useVehicles } from "../store";
import { matchesVehicle } from "../vehicles/filter";
import { formatType, orDash } from "../vehicles/format";

const ROW_HEIGHT = 44;
const OVERSCAN = 10;

/** The vehicle list: filter, columns of SPEC.md, rows linking to each vehicle; virtualised. */
export default function VehiclesPage() {
  const vehicles = useVehicles();
  const { hydrated } = useStoreStatus();
  const [query, setQuery] = useState("");
  const shown = useMemo(() => vehicles.filter((v) => matchesVehicle(v, query)), [vehicles, query]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const height = 600;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  // Arrow keys walk the rows (from the filter box too); Enter is the link's own. A row scrolled
  // out of the virtual window is rendered first, then focused.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const cursor = useRef(-1);
  const onKey = (e: KeyboardEvent<HTMLElement>, index: number) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    if (!shown.length) return;
    e.preventDefault();
    // The row keys aim at, not the focused one: focus lags a render behind when keys come fast.
    const at = index === -1 ? -1 : cursor.current;
    const next = Math.min(shown.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
    cursor.current = next;
    const el = scroller.current;
    if (el && (next * ROW_HEIGHT < el.scrollTop || (next + 1) * ROW_HEIGHT > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, next * ROW_HEIGHT - el.clientHeight / 2);
    }
    setFocusIndex(next);
  };
  useEffect(() => {
    if (focusIndex === null) return;
    const row = scroller.current?.querySelector<HTMLAnchorElement>(`[data-index="${focusIndex}"]`);
    if (!row) return; // not rendered yet: the scroll's re-render runs this again
    row.focus();
    setFocusIndex(null);
  }, [focusIndex, first, last]);

  return (
    <section className="page">
      <div className="page-header">
        <h1>Vehicles</h1>
        <Link to="/infleet" className="button primary">
          Add Vehicle
        </Link>
      </div>
      <input
        className="input filter"
        type="search"
        aria-label="Filter vehicles"
        placeholder="Filter by name, vin, make, model, or driver..."
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => onKey(e, -1)}
      />
      <div className="table" role="table" aria-label="Vehicles" aria-rowcount={shown.length + 1}>
        <div className="table-row table-head" role="row">
          {["Vehicles", "Operator", "Year", "Type", "Status"].map((h) => (
            <span role="columnheader" key={h}>
              {h}
            </span>
          ))}
        </div>
        <div
          className="table-body"
          ref={scroller}
          style={{ maxHeight: height }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: shown.length * ROW_HEIGHT, position: "relative" }}>
            {shown.slice(first, last).map((v, i) => {
              const index = first + i;
              return (
                <Link
                  key={v.id}
                  to={`/vehicles/${v.id}`}
                  prefetch="intent"
                  className="table-row"
                  role="row"
                  data-index={index}
                  aria-rowindex={index + 2}
                  style={{ position: "absolute", top: index * ROW_HEIGHT, height: ROW_HEIGHT, left: 0, right: 0 }}
                  onKeyDown={(e) => onKey(e, index)}
                  onFocus={() => (cursor.current = index)}
                >
                  <span role="cell">{v.name}</span>
                  <span role="cell">{orDash(v.driver)}</span>
                  <span role="cell">{orDash(v.year)}</span>
                  <span role="cell">{formatType(v.classification?.value)}</span>
                  <span role="cell">{formatType(v.status)}</span>
                </Link>
              );
            })}
          </div>
        </div>
      </div>
      {!hydrated ? <p className="muted empty">Loading vehicles…</p> : null}
      {hydrated && vehicles.length > 0 && shown.length === 0 ? <p className="muted empty">No vehicle matches “{query}”.</p> : null}
      {hydrated && vehicles.length === 0 ? (
        <p className="muted empty">
          Your fleet is empty. <Link to="/infleet">Add vehicles</Link>: each comes with a tracking beacon.
        </p>
      ) : null}
    </section>
  );
}
