import * as Tooltip from "@radix-ui/react-tooltip";
import { Link, NavLink, Outlet, useParams } from "@remix-run/react";
import { ShareLocation } from "../vehicles/share-location";
import { Fragment } from "react";
import { toast } from "sonner";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { isIgnitionOn } from "../../shared/fleet/vehicle-state";
import { useStoreStatus, useTelemetry, useVehicle } from "../store";
import { identityParts } from "../vehicles/format";
import { useOpenIssueCounts } from "../store/issues";
import { ReportIssueButton } from "../issues/report-issue-dialog";
import { useLinkPrefetch } from "../nav/use-link-prefetch";

/** A vehicle's page: header (name, status dot, year, make, model, VIN), breadcrumb and tabs. */
export default function VehicleLayout() {
  const { vehicleId } = useParams();
  const vehicle = useVehicle(vehicleId);
  const telemetry = useTelemetry(vehicleId);
  const prefetch = useLinkPrefetch();
  // Only once the server has been heard from: a first visit's store is empty until its first pull.
  const { hydrated, pulled } = useStoreStatus();
  const known = hydrated && pulled;

  if (!vehicle) {
    return (
      <section className="page">
        <Breadcrumb name={known ? "Not found" : "…"} />
        {known ? <p className="muted">This vehicle is not in your fleet.</p> : null}
      </section>
    );
  }

  const on = isIgnitionOn(telemetry?.status);
  return (
    <section className="page">
      <Breadcrumb name={vehicle.name} />
      <header className="vehicle-header">
        <h1>
          <span
            className={`status-dot ${on ? "on" : "off"}`}
            role="img"
            aria-label={on ? "Ignition on" : "Ignition off"}
          />
          {vehicle.name}
          <OpenIssuesBadge vehicleId={vehicle.id} />
        </h1>
        <p className="muted">
          <Identity vehicle={vehicle} />
        </p>
        <ShareLocation vehicleId={vehicle.id} />
        <ReportIssueButton vehicleId={vehicle.id} />
      </header>
      <nav className="tabs" aria-label="Vehicle sections">
        {["overview", "service", "work-orders", "fuel", "costs", "inspections", "issues", "settings"].map((tab) => (
          <NavLink key={tab} to={tab} prefetch={prefetch}>
            {tab.charAt(0).toUpperCase() + tab.slice(1).replace("-", " ")}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}

/** "2 open issues", linking to the Issues tab; nothing when there are none. */
function OpenIssuesBadge({ vehicleId }: { vehicleId: string }) {
  const open = useOpenIssueCounts().get(vehicleId) ?? 0;
  if (!open) return null;
  return (
    <Link to="issues" className="issue-count" data-testid="vehicle-open-issues">
      {open} open {open === 1 ? "issue" : "issues"}
    </Link>
  );
}

/** Year, make, model and VIN (the VIN copied on a click), or a link to Settings when none is known. */
function Identity({ vehicle }: { vehicle: Vehicle }) {
  const identity = identityParts(vehicle);
  if (identity.length === 0) return <Link to="settings">Add year, make, model and VIN in Settings</Link>;
  return identity.map((part, i) => (
    <Fragment key={part}>
      {i > 0 ? " · " : null}
      {part === vehicle.vin ? <CopyableVin vin={vehicle.vin} /> : part}
    </Fragment>
  ));
}

function CopyableVin({ vin }: { vin: string }) {
  const copy = async () => {
    await navigator.clipboard.writeText(vin).catch(() => undefined);
    toast("VIN has been copied", { duration: 1500 });
  };
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <button type="button" className="link-button mono" onClick={copy} aria-label={`VIN ${vin}`}>
          {vin}
        </button>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className="tooltip" sideOffset={4}>
          Click to copy
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

function Breadcrumb({ name }: { name: string }) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <Link to="/vehicles">Vehicles</Link>
      <span aria-hidden> / </span>
      <span>{name}</span>
    </nav>
  );
}
