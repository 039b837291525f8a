import { Link, useSearchParams } from "@remix-run/react";
import type { KeyboardEventHandler } from "react";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { isFleetStatus, type FleetStatus } from "../../shared/fleet/vehicle-state";
import { useVirtualList, type VirtualRowProps } from "../components/use-virtual-list";
import { useVehicleFilter } from "../vehicles/use-vehicle-filter";
import { formatType, orDash } from "../vehicles/format";
import { VehicleListNote } from "../vehicles/vehicle-list-note";
import { FilterBox } from "../components/filter-box";
import { useOpenIssueCounts } from "../store/issues";
import { usePhone } from "../lib/use-phone";
import { useLinkPrefetch } from "../nav/use-link-prefetch";

const ROW_HEIGHT = 44;
/** On a phone each vehicle is a card of two lines (styles.css, .table-row at the phone breakpoint). */
const CARD_HEIGHT = 76;
const OVERSCAN = 10;
const LIST_HEIGHT = 600;

/** What the list says while the fleet has no vehicle. */
const emptyFleet = (
  <>
    Your fleet is empty. <Link to="/infleet">Add vehicles</Link>: each comes with a tracking beacon.
  </>
);

/** The vehicle list: filter, columns of docs/product.md, rows linking to each vehicle; virtualised. */
export default function VehiclesPage() {
  const [params] = useSearchParams();
  const requested = params.get("status");
  const filter = useVehicleFilter(isFleetStatus(requested) ? requested : null);
  const { query, setQuery, shown } = filter;
  // Arrow keys walk the rows (from the filter box too); Enter is the link's own.
  const rowHeight = usePhone() ? CARD_HEIGHT : ROW_HEIGHT;
  const { scroller, first, last, onKeyDown, onScroll, onRowFocus } = useVirtualList(shown.length, rowHeight, OVERSCAN);
  const openIssues = useOpenIssueCounts();
  const prefetch = useLinkPrefetch();

  return (
    <section className="page">
      <div className="page-header">
        <h1>Vehicles</h1>
        <Link to="/infleet" className="button primary">
          Add Vehicle
        </Link>
      </div>
      <FilterBox
        label="Filter vehicles"
        placeholder="Filter by name, vin, make, model, or driver..."
        query={query}
        setQuery={setQuery}
        onKeyDown={onKeyDown}
      />
      {filter.status ? <StatusFilterNote status={filter.status} count={shown.length} /> : null}
      <div className="table" role="table" aria-label="Vehicles" aria-rowcount={shown.length + 1}>
        <div className="table-row table-head" role="row">
          {["Vehicles", "Operator", "Year", "Type", "Status"].map((h) => (
            <span role="columnheader" key={h}>
              {h}
            </span>
          ))}
        </div>
        <div className="table-body" ref={scroller} style={{ maxHeight: LIST_HEIGHT }} onScroll={onScroll}>
          <div style={{ height: shown.length * rowHeight, position: "relative" }}>
            {shown.slice(first, last).map((v, i) => (
              <VehicleRow
                key={v.id}
                vehicle={v}
                index={first + i}
                rowHeight={rowHeight}
                onKeyDown={onKeyDown}
                onFocus={onRowFocus}
                openIssues={openIssues.get(v.id) ?? 0}
                prefetch={prefetch}
              />
            ))}
          </div>
        </div>
      </div>
      <VehicleListNote filter={filter} empty={emptyFleet} />
    </section>
  );
}

/** One row, placed absolutely at its index in the virtualised list. */
function VehicleRow({
  vehicle: v,
  index,
  rowHeight,
  onKeyDown,
  onFocus,
  openIssues,
  prefetch,
}: VirtualRowProps & {
  vehicle: Vehicle;
  rowHeight: number;
  onKeyDown: KeyboardEventHandler;
  openIssues: number;
  prefetch: "intent" | "none";
}) {
  return (
    <Link
      to={`/vehicles/${v.id}`}
      prefetch={prefetch}
      className="table-row"
      role="row"
      data-index={index}
      aria-rowindex={index + 2}
      style={{ position: "absolute", top: index * rowHeight, height: rowHeight, left: 0, right: 0 }}
      onKeyDown={onKeyDown}
      onFocus={() => onFocus(index)}
    >
      <span role="cell" className="cell-name">
        {v.name}
        {openIssues ? (
          <span className="issue-count" aria-label={`${openIssues} open ${openIssues === 1 ? "issue" : "issues"}`}>
            {openIssues}
          </span>
        ) : null}
      </span>
      <span role="cell" data-label="Operator">
        {orDash(v.driver)}
      </span>
      <span role="cell" data-label="Year">
        {orDash(v.year)}
      </span>
      <span role="cell" data-label="Type">
        {formatType(v.classification?.value)}
      </span>
      <span role="cell" data-label="Status">
        {formatType(v.status)}
      </span>
    </Link>
  );
}

const STATUS_WORDS: Record<FleetStatus, string> = {
  moving: "moving",
  idle: "idle (ignition on, standing)",
  parked: "parked",
  silent: "silent (no active beacon)",
};

/** Which vehicles the list keeps when opened from the overview's counts, and the way back to all. */
function StatusFilterNote({ status, count }: { status: FleetStatus; count: number }) {
  return (
    <p className="filter-note" role="status">
      {count} {count === 1 ? "vehicle" : "vehicles"} {STATUS_WORDS[status]} now. <Link to="/vehicles">Show all</Link>
    </p>
  );
}
