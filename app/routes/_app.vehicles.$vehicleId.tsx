import * as Tooltip from "@radix-ui/react-tooltip";
import { Link, NavLink, Outlet, useParams } from "@remix-run/react";
import { Fragment } from "react";
import { toast } from "sonner";
import { isIgnitionOn } from "../../shared/vehicle-state";
import { useStoreStatus, useTelemetry, useVehicle } from "../store";
import { identityParts } from "../vehicles/format";

/** A vehicle's page: header (name, status dot, year, make, model, VIN), breadcrumb and tabs. */
export default function VehicleLayout() {
  const { vehicleId } = useParams();
  const vehicle = useVehicle(vehicleId);
  const telemetry = useTelemetry(vehicleId);
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
  const identity = identityParts(vehicle);
  const copyVin = async () => {
    if (!vehicle.vin) return;
    await navigator.clipboard.writeText(vehicle.vin).catch(() => undefined);
    toast("VIN has been copied", { duration: 1500 });
  };

  return (
    <section className="page">
      <Breadcrumb name={vehicle.name} />
      <header className="vehicle-header">
        <h1>
          <span className={`status-dot ${on ? "on" : "off"}`} role="img" aria-label={on ? "Ignition on" : "Ignition off"} />
          {vehicle.name}
        </h1>
        <p className="muted">
          {identity.length === 0 ? (
            <Link to="settings">Add year, make, model and VIN in Settings</Link>
          ) : (
            identity.map((part, i) => (
              <Fragment key={part}>
                {i > 0 ? " · " : null}
                {part === vehicle.vin ? (
                  <Tooltip.Root>
                    <Tooltip.Trigger asChild>
                      <button type="button" className="link-button mono" onClick={copyVin} aria-label={`VIN ${vehicle.vin}`}>
                        {vehicle.vin}
                      </button>
                    </Tooltip.Trigger>
                    <Tooltip.Portal>
                      <Tooltip.Content className="tooltip" sideOffset={4}>
                        Click to copy
                      </Tooltip.Content>
                    </Tooltip.Portal>
                  </Tooltip.Root>
                ) : (
                  part
                )}
              </Fragment>
            ))
          )}
        </p>
      </header>
      <nav className="tabs" aria-label="Vehicle sections">
        {["overview", "service", "inspections", "issues", "settings"].map((tab) => (
          <NavLink key={tab} to={tab} prefetch="intent">
            {tab.charAt(0).toUpperCase() + tab.slice(1)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
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
