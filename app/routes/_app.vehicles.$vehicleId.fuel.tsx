import { useParams } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import type { FuelEconomy, FuelEntry } from "../../shared/costs/fuel";
import { useApi } from "../maintenance/use-api";
import { useSyncStatus } from "../sync/sync-status";
import { FuelLog } from "../fuel/fuel-log";
import { LogFuelForm, type FuelPrefill } from "../fuel/fuel-forms";
import { UnloggedRefuels } from "../fuel/unlogged-refuels";
import { money } from "../maintenance/format";
import { useOlder, withOlder } from "../maintenance/use-older";
import { ShowOlder } from "../maintenance/show-older";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicle } from "../store";
import { fuelRowOf, useFuelEntries, useUnloggedRefuels, type FuelRow } from "../store/fuel";
import { distanceText, economyText, volumeText } from "../units/units-text";
import { useWorkspaceUnits } from "../reports/use-workspace-time-zone";

const entriesOf = (body: unknown) => (body as { entries: FuelEntry[] }).entries.map(fuelRowOf);

/**
 * A vehicle's Fuel tab (issue 42): its fill-ups with cost and receipts, "Check" on readings that
 * cannot be right, "Log fuel" for members, Edit and Delete for owners and admins. From the synced
 * store (the last 90 days, offline too, ADR 0045); "Show older" reads the rest from the server.
 */
export default function VehicleFuel() {
  const { vehicleId = "" } = useParams();
  const vehicle = useVehicle(vehicleId);
  const synced = useFuelEntries(vehicleId);
  const older = useOlder<FuelRow>(
    `fuel-entries?vehicleId=${encodeURIComponent(vehicleId)}`,
    useCallback(entriesOf, []),
  );
  const canLog = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  const { pulled } = useStoreStatus();
  const unlogged = useUnloggedRefuels(vehicleId);
  const units = useWorkspaceUnits();
  const [prefill, setPrefill] = useState<FuelPrefill>();
  if (!vehicle) return null;
  const rows = withOlder(synced, older.rows);
  const cost = rows.reduce((sum, e) => sum + (e.costCents ?? 0), 0);
  const litres = rows.reduce((sum, e) => sum + e.volumeLitres, 0);
  return (
    <div className="vehicle-fuel">
      <UnloggedRefuels refuels={unlogged} vehicleName={() => vehicle.name} logIt={canLog ? setPrefill : undefined} />
      <section aria-label="Fuel log">
        <h2>Fuel</h2>
        <p className="muted">
          Tank: {vehicle.fuelTankLitres === null ? "not set (in Settings)" : volumeText(vehicle.fuelTankLitres, units)}
        </p>
        {pulled && !rows.length ? <p className="muted">No fuel logged in the last 90 days.</p> : null}
        {rows.length ? (
          <p className="muted">
            {older.rows ? "All" : "Last 90 days"}: {volumeText(litres, units)} · {money(cost)}
          </p>
        ) : null}
        <Economy vehicleId={vehicleId} rows={synced} />
        <FuelLog rows={rows} canManage={canManage} />
        <ShowOlder older={older} />
      </section>
      {canLog ? (
        <div className="maintenance-forms">
          <LogFuelForm
            key={prefill?.id ?? "new"}
            vehicleId={vehicleId}
            prefill={prefill}
            onLogged={() => setPrefill(undefined)}
          />
        </div>
      ) : null}
    </div>
  );
}

/**
 * The vehicle's fuel economy, full tank to full tank, from the server (domain/fuel/economy.ts), read
 * again whenever its synced fill-ups change and when this device's pending edits reach the server
 * (a fill-up logged here looks the same before and after). Online only: offline, the last answer stays.
 */
function Economy({ vehicleId, rows }: { vehicleId: string; rows: FuelRow[] }) {
  const { data, reload } = useApi<FuelEconomy>(`vehicles/${encodeURIComponent(vehicleId)}/fuel-economy`);
  const { pendingMutations } = useSyncStatus();
  const stamp = `${pendingMutations}|${rows.map((r) => `${r.id}:${r.volumeLitres}:${r.odometerMiles}:${r.fullTank}`).join()}`;
  useEffect(() => reload(), [stamp, reload]);
  const units = useWorkspaceUnits();
  if (!data) return null;
  const figure = economyText(data, units);
  if (figure === null)
    return <p className="muted">Fuel economy: shown after two full-tank fill-ups with an odometer.</p>;
  return (
    <p data-testid="fuel-economy">
      Fuel economy: <strong>{figure}</strong> over {distanceText(data.distanceMiles, units)} ({data.entriesUsed}{" "}
      {data.entriesUsed === 1 ? "fill-up" : "fill-ups"}
      {data.entriesFlagged ? `; ${data.entriesFlagged} to check left out` : ""})
    </p>
  );
}
