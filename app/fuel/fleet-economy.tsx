import { useMemo } from "react";
import type { FuelEconomy } from "../../shared/costs/fuel";
import { fleetFuelEconomy, fuelEconomy } from "../../shared/costs/fuel-economy";
import type { WorkspaceUnits } from "../../shared/units/units";
import type { FuelRow } from "../store/fuel";
import { distanceText, economyText } from "../units/units-text";

/**
 * The fleet's fuel economy over the fill-ups the Fuel page shows (the synced 90 days), and each
 * vehicle's: full tank to full tank per vehicle with the API's rule (shared/costs/fuel-economy.ts), the
 * fleet's summed as distance over volume, fill-ups to check left out. From the store, so offline too.
 */
export function FleetEconomy({
  rows,
  vehicleName,
  units,
}: {
  rows: FuelRow[];
  vehicleName: (vehicleId: string) => string;
  units: WorkspaceUnits;
}) {
  const { fleet, vehicles } = useMemo(() => economyOf(rows), [rows]);
  if (!rows.length) return null;
  const fleetText = economyText(fleet, units);
  return (
    <div className="card" role="region" aria-label="Fuel economy">
      <h2>Fuel economy</h2>
      <p data-testid="fleet-economy">
        {fleetText === null ? (
          <span className="muted">Fleet: shown after two full-tank fill-ups of a vehicle with an odometer.</span>
        ) : (
          <>
            Fleet: <strong>{fleetText}</strong> over {distanceText(fleet.distanceMiles, units)}
            {fleet.entriesFlagged ? ` (${fleet.entriesFlagged} to check left out)` : ""}
          </>
        )}
      </p>
      <ul className="maintenance-list" aria-label="Fuel economy by vehicle">
        {[...vehicles]
          .sort(([a], [b]) => vehicleName(a).localeCompare(vehicleName(b), undefined, { numeric: true }))
          .map(([vehicleId, e]) => (
            <li key={vehicleId} className="maintenance-row">
              <span>{vehicleName(vehicleId)}</span>
              <strong>{economyText(e, units) ?? "-"}</strong>
              <span className="muted">
                {e.mpg === null ? "not enough full-tank fill-ups" : `over ${distanceText(e.distanceMiles, units)}`}
                {e.entriesFlagged ? ` · ${e.entriesFlagged} to check left out` : ""}
              </span>
            </li>
          ))}
      </ul>
    </div>
  );
}

function economyOf(rows: FuelRow[]) {
  const byVehicle = new Map<string, FuelRow[]>();
  for (const r of rows) byVehicle.set(r.vehicleId, [...(byVehicle.get(r.vehicleId) ?? []), r]);
  const vehicles: [string, FuelEconomy][] = [...byVehicle].map(([id, own]) => [id, fuelEconomy(own)]);
  return { fleet: fleetFuelEconomy(vehicles.map(([, e]) => e)), vehicles };
}
