import type { WorkspaceUnits } from "../../shared/units/units";
import { fleetEconomyOf, fuelPageEconomyQuery } from "../../shared/costs/fleet-economy";
import { useKeptCostReport } from "../reports/use-kept-cost-report";
import { economyText } from "../units/units-text";

/**
 * The fleet's fuel economy over the Fuel page's 90 days, and each vehicle's, as the cost report
 * answers them (shared/costs/fleet-economy.ts): full tank to full tank over each vehicle's whole log,
 * fill-ups to check left out, the fleet's summed as distance over volume. Kept on the device for a
 * page opened offline (the last answer the server gave).
 */
export function FleetEconomy({
  today,
  vehicleName,
  units,
}: {
  today: string;
  vehicleName: (vehicleId: string) => string;
  units: WorkspaceUnits;
}) {
  const answer = useKeptCostReport("fuel-economy", fuelPageEconomyQuery(today));
  // A kept answer for other days is not this page's.
  if (!answer || answer.to !== today) return null;
  const { fleet, vehicles } = fleetEconomyOf(answer);
  if (!vehicles.length) return null;
  const fleetText = economyText(fleet, units);
  return (
    <div className="card" role="region" aria-label="Fuel economy">
      <h2>Fuel economy</h2>
      <p data-testid="fleet-economy">
        {fleetText === null ? (
          <span className="muted">Fleet: shown after two full-tank fill-ups of a vehicle with an odometer.</span>
        ) : (
          <>
            Fleet: <strong>{fleetText}</strong>
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
                {e.mpg === null ? "not enough full-tank fill-ups" : "full tank to full tank"}
              </span>
            </li>
          ))}
      </ul>
    </div>
  );
}
