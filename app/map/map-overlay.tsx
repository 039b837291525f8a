import { Link, useSearchParams } from "@remix-run/react";
import { useMemo, useRef, useState, type KeyboardEvent } from "react";
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

function VehicleListPanel({ onSelect }: { onSelect: (id: string) => void }) {
  const vehicles = useVehicles();
  const { hydrated } = useStoreStatus();
  const [query, setQuery] = useState("");
  const shown = useMemo(() => vehicles.filter((v) => matchesVehicle(v, query)), [vehicles, query]);
  const list = useRef<HTMLUListElement>(null);
  // Arrow keys move between the search box and the rows; Enter (a button's own) selects.
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const rows = [...(list.current?.querySelectorAll<HTMLButtonElement>("button.panel-row") ?? [])];
    if (!rows.length) return;
    e.preventDefault();
    const at = rows.indexOf(document.activeElement as HTMLButtonElement);
    const next = at === -1 ? 0 : Math.min(rows.length - 1, Math.max(0, at + (e.key === "ArrowDown" ? 1 : -1)));
    rows[next]!.focus();
  };
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
      <ul className="panel-list" aria-label="Vehicles" ref={list} onKeyDown={onKeyDown}>
        {shown.map((v) => (
          <li key={v.id}>
            <button type="button" className="panel-row" onClick={() => onSelect(v.id)} aria-label={`${v.name}, beacon ${v.beaconStatus === "ACTIVE" ? "active" : "inactive"}`}>
              <span className="vehicle-name">{v.name}</span>
              <span
                className={`connectivity ${v.beaconStatus === "ACTIVE" ? "on" : "off"}`}
                role="img"
                aria-label={v.beaconStatus === "ACTIVE" ? "Beacon active" : "Beacon inactive"}
                data-beacon-status={v.beaconStatus}
              />
            </button>
          </li>
        ))}
      </ul>
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
