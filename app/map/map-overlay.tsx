import { Link, useSearchParams } from "@remix-run/react";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { isBeaconActive } from "../../shared/fleet/vehicle-state";
import { useVirtualList, type VirtualRowProps } from "../components/use-virtual-list";
import { WorkspaceMenu } from "../components/workspace-menu";
import { useVehicle } from "../store";
import { useVehicleFilter } from "../vehicles/use-vehicle-filter";
import { VehicleListNote } from "../vehicles/vehicle-list-note";
import { VehiclePanel } from "../vehicles/vehicle-panel";
import { FilterBox } from "../components/filter-box";
import { MapSheet } from "./map-sheet";

/** What floats over the map: the vehicle list, or the selected vehicle's panel. */
export function MapOverlay() {
  const [params, setParams] = useSearchParams();
  const vehicleId = params.get("vehicleId");
  const select = (id: string | null) =>
    setParams((p) => {
      if (id) p.set("vehicleId", id);
      else p.delete("vehicleId");
      // A trip shown on the map belongs to the vehicle it was picked from.
      p.delete("event");
      return p;
    });
  return vehicleId ? (
    <SelectedVehicle id={vehicleId} onBack={() => select(null)} />
  ) : (
    <VehicleListPanel onSelect={select} />
  );
}

const ROW_HEIGHT = 36;
const OVERSCAN = 8;

/** What the list says while the fleet has no vehicle. */
const emptyFleet = (
  <>
    No vehicles yet. <Link to="/infleet">Order beacons</Link> to add vehicles to your fleet.
  </>
);

/** The panel's vehicle list: virtualised (only the visible rows exist), so 10,000 vehicles cost what 30 do. */
function VehicleListPanel({ onSelect }: { onSelect: (id: string) => void }) {
  const filter = useVehicleFilter();
  const { query, setQuery, shown } = filter;
  // Arrow keys move between the search box and the rows; Enter (a button's own) selects.
  const { scroller, first, last, onKeyDown, onScroll, onRowFocus } = useVirtualList(shown.length, ROW_HEIGHT, OVERSCAN);

  return (
    <MapSheet className="map-panel" label="Vehicles panel">
      <WorkspaceMenu />
      <div className="panel-header">
        <h2>Vehicles</h2>
        <span className="filter-icon" role="img" aria-label="Filter" title="Filter">
          ⚲
        </span>
      </div>
      <FilterBox
        className="input"
        label="Search vehicles"
        placeholder="Search vehicles"
        query={query}
        setQuery={setQuery}
        onKeyDown={onKeyDown}
      />
      <div className="panel-scroll" ref={scroller} onScroll={onScroll}>
        <ul
          className="panel-list"
          aria-label="Vehicles"
          onKeyDown={onKeyDown}
          style={{ height: shown.length * ROW_HEIGHT }}
        >
          {shown.slice(first, last).map((v, i) => (
            <PanelRow
              key={v.id}
              vehicle={v}
              index={first + i}
              setSize={shown.length}
              onFocus={onRowFocus}
              onSelect={onSelect}
            />
          ))}
        </ul>
      </div>
      <VehicleListNote filter={filter} empty={emptyFleet} />
    </MapSheet>
  );
}

/** One vehicle of the panel's list, placed at its index, with its beacon's connectivity. */
function PanelRow({
  vehicle: v,
  index,
  setSize,
  onFocus,
  onSelect,
}: VirtualRowProps & { vehicle: Vehicle; setSize: number; onSelect: (id: string) => void }) {
  const active = isBeaconActive(v.beaconStatus);
  return (
    <li aria-setsize={setSize} aria-posinset={index + 1} style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}>
      <button
        type="button"
        className="panel-row"
        data-index={index}
        onFocus={() => onFocus(index)}
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
}

function SelectedVehicle({ id, onBack }: { id: string; onBack: () => void }) {
  const vehicle = useVehicle(id);
  return (
    <MapSheet className="map-panel detail" label="Vehicle panel">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <button type="button" className="link-button" onClick={onBack}>
          Vehicles
        </button>
        <span aria-hidden> / </span>
        <span>{vehicle?.name ?? "…"}</span>
      </nav>
      {vehicle ? <VehiclePanel vehicle={vehicle} /> : <p className="muted">This vehicle is not in your fleet.</p>}
    </MapSheet>
  );
}
