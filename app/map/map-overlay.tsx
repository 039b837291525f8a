import { Link, useSearchParams } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { WorkspaceMenu } from "../components/workspace-menu";
import { useVehicle, useVehicles, useStoreStatus } from "../store";
import { matchesVehicle } from "../vehicles/filter";
import { VehiclePanel } from "../vehicles/vehicle-panel";

/** What floats over the map: the vehicle list, or the selected vehicle's panel. */
export function MapOverlay() {
  const [params, setParams] = useSearchParams();
  const vehicleId = params.get("vehicleId");
  const select = (id: string | null) =>
    setParams((p) => {
      if (id) p.set("vehicleId", id);
      else p.delete("vehicleId");
      return p;
    });
  return vehicleId ? <SelectedVehicle id={vehicleId} onBack={() => select(null)} /> : <VehicleListPanel onSelect={select} />;
}

const ROW_HEIGHT = 36;
const OVERSCAN = 8;

/** The panel's vehicle list: virtualised (only the visible rows exist), so 10,000 vehicles cost what 30 do. */
function VehicleListPanel({ onSelect }: { onSelect: (id: string) => void }) {
  const vehicles = useVehicles();
  const { hydrated } = useStoreStatus();
  const [query, setQuery] = useState("");
  const shown = useMemo(() => vehicles.filter((v) => matchesVehicle(v, query)), [vehicles, query]);
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
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(shown.length, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);

  // Arrow keys move between the search box and the rows; Enter (a button's own) selects. A row
  // outside the rendered window is scrolled into it first, then focused.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const cursor = useRef(-1);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    if (!shown.length) return;
    e.preventDefault();
    // The row keys aim at, not the focused one: focus lags a render behind when keys come fast.
    const at = e.currentTarget instanceof HTMLInputElement ? -1 : cursor.current;
    const next = at === -1 ? 0 : Math.min(shown.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
    cursor.current = next;
    const el = scroller.current;
    if (el && (next * ROW_HEIGHT < el.scrollTop || (next + 1) * ROW_HEIGHT > el.scrollTop + el.clientHeight)) {
      el.scrollTop = Math.max(0, next * ROW_HEIGHT - el.clientHeight / 2);
    }
    setFocusIndex(next);
  };
  useEffect(() => {
    if (focusIndex === null) return;
    const row = scroller.current?.querySelector<HTMLButtonElement>(`button[data-index="${focusIndex}"]`);
    if (!row) return; // not rendered yet: the scroll's re-render runs this again
    row.focus();
    setFocusIndex(null);
  }, [focusIndex, first, last]);

  return (
    <aside className="map-panel" aria-label="Vehicles panel">
      <WorkspaceMenu />
      <div className="panel-header">
        <h2>Vehicles</h2>
        <span className="filter-icon" role="img" aria-label="Filter" title="Filter">
          ⚲
        </span>
      </div>
      <input
        className="input"
        type="search"
        placeholder="Search vehicles"
        aria-label="Search vehicles"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <div className="panel-scroll" ref={scroller} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <ul className="panel-list" aria-label="Vehicles" onKeyDown={onKeyDown} style={{ height: shown.length * ROW_HEIGHT }}>
          {shown.slice(first, last).map((v, i) => {
            const index = first + i;
            const active = v.beaconStatus === "ACTIVE";
            return (
              <li key={v.id} aria-setsize={shown.length} aria-posinset={index + 1} style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}>
                <button
                  type="button"
                  className="panel-row"
                  data-index={index}
                  onFocus={() => (cursor.current = index)}
                  onClick={() => onSelect(v.id)}
                  aria-label={`${v.name}, beacon ${active ? "active" : "inactive"}`}
                >
                  <span className="vehicle-name">{v.name}</span>
                  <span
                    className={`connectivity ${active ? "on" : "off"}`}
                    role="img"
                    aria-label={active ? "Beacon active" : "Beacon inactive"}
                    data-beacon-status={v.beaconStatus}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      {!hydrated ? <p className="muted empty">Loading vehicles…</p> : null}
      {hydrated && vehicles.length === 0 ? (
        <p className="muted empty">
          No vehicles yet. <Link to="/infleet">Order beacons</Link> to add vehicles to your fleet.
        </p>
      ) : null}
      {hydrated && vehicles.length > 0 && shown.length === 0 ? <p className="muted empty">No vehicle matches “{query}”.</p> : null}
    </aside>
  );
}

function SelectedVehicle({ id, onBack }: { id: string; onBack: () => void }) {
  const vehicle = useVehicle(id);
  return (
    <aside className="map-panel detail" aria-label="Vehicle panel">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <button type="button" className="link-button" onClick={onBack}>
          Vehicles
        </button>
        <span aria-hidden> / </span>
        <span>{vehicle?.name ?? "…"}</span>
      </nav>
      {vehicle ? <VehiclePanel vehicle={vehicle} /> : <p className="muted">This vehicle is not in your fleet.</p>}
    </aside>
  );
}
