import type { UnloggedRefuel } from "../store/fuel";
import type { FuelPrefill } from "./fuel-forms";
import { whenText } from "./fuel-log";
import { volumeText } from "../units/units-text";
import { useWorkspaceClock, useWorkspaceUnits } from "../reports/use-workspace-time-zone";

/**
 * The Fuel page's "check" rows (docs/decisions/0060): refuels the beacon's fuel level showed with no
 * fill-up logged within 2 hours (shared/costs/fuel-check.ts), from the synced store so they show offline.
 * "Log it" opens the log form filled in with the refuel's vehicle, time and volume.
 */
export function UnloggedRefuels({
  refuels,
  vehicleName,
  logIt,
}: {
  refuels: UnloggedRefuel[];
  vehicleName: (vehicleId: string) => string;
  /** absent for viewers, who cannot log */
  logIt?: (prefill: FuelPrefill) => void;
}) {
  const units = useWorkspaceUnits();
  const clock = useWorkspaceClock();
  if (!refuels.length) return null;
  return (
    <div className="card" role="region" aria-label="Refuels to check">
      <h2>Check</h2>
      <ul className="maintenance-list" aria-label="Refuels seen, not logged">
        {refuels.map((r) => (
          <li key={r.id} className="maintenance-row fuel-row">
            <span className="status-pill due_soon">Refuel seen, not logged</span>
            <span>{vehicleName(r.vehicleId)}</span>
            <strong>{whenText(r.startTime, clock)}</strong>
            <span className="muted">
              {r.litres === null
                ? `${Math.round((r.fuelTo ?? 0) - (r.fuelFrom ?? 0))} % of the tank (set its size for a volume)`
                : `about ${volumeText(r.litres, units)}`}
            </span>
            {logIt ? (
              <button
                type="button"
                className="button"
                aria-label={`Log the refuel of ${vehicleName(r.vehicleId)} at ${whenText(r.startTime, clock)}`}
                onClick={() => logIt({ id: r.id, vehicleId: r.vehicleId, at: r.startTime, litres: r.litres })}
              >
                Log it
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
