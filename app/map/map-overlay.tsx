import { Link, useSearchParams } from "@remix-run/react";
import { useMemo, useState } from "react";
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
  return (
    <aside className="map-panel" aria-label="Vehicles panel">
      <WorkspaceMenu />
      <div className="panel-header">
        <h2>Vehicles</h2>
        <span className="filter-icon" aria-hidden title="Filter">
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
      />
      <ul className="panel-list" aria-label="Vehicles">
        {shown.map((v) => (
          <li key={v.id}>
            <button type="button" className="panel-row" onClick={() => onSelect(v.id)}>
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
