import { useCallback, useMemo, useRef, useState } from "react";
import { FuelLog } from "../fuel/fuel-log";
import { FleetEconomy } from "../fuel/fleet-economy";
import { volumeText } from "../units/units-text";
import { useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { LogFuelForm, type FuelPrefill } from "../fuel/fuel-forms";
import { UnloggedRefuels } from "../fuel/unlogged-refuels";
import { money } from "../maintenance/format";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicles } from "../store";
import { useFuelEntries, useUnloggedRefuels } from "../store/fuel";
import { FleetExpenses } from "../costs/fleet-expenses";
import { useWorkspaceToday } from "../costs/use-workspace-today";
import { useMyVehicle } from "../jobs/use-my-vehicle";

/**
 * The fleet's Fuel page (issue 42): every vehicle's fill-ups of the last 90 days, newest first,
 * with the readings to check, the fleet's and each vehicle's economy, the refuels seen but not logged (ADR 0060) with "Log it", and "Log
 * fuel" for any vehicle. From the synced store, so it opens offline (ADR 0045); a vehicle's older
 * fill-ups are on its Fuel tab.
 */
export default function FuelPage() {
  const rows = useFuelEntries();
  const vehicles = useVehicles();
  const { pulled } = useStoreStatus();
  const canLog = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  const names = useMemo(() => new Map(vehicles.map((v) => [v.id, v.name])), [vehicles]);
  const vehicleName = useCallback((id: string) => names.get(id) ?? "", [names]);
  const flagged = rows.filter((r) => r.flags.length).length;
  const unlogged = useUnloggedRefuels();
  const units = useWorkspaceUnits();
  const today = useWorkspaceToday();
  const [prefill, setPrefill] = useState<FuelPrefill>();
  // At the pump: the vehicle this device drives (My day's choice, or the member's as its driver).
  const myVehicleId = useMyVehicle().vehicle?.id;
  const formArea = useRef<HTMLDivElement>(null);
  const logIt = (p: FuelPrefill) => {
    setPrefill(p);
    formArea.current?.scrollIntoView({ block: "start" });
  };
  return (
    <section className="page fuel">
      <header className="page-header">
        <h1>Fuel</h1>
      </header>
      <UnloggedRefuels refuels={unlogged} vehicleName={vehicleName} logIt={canLog ? logIt : undefined} />
      <FleetEconomy today={today} vehicleName={vehicleName} units={units} />
      <div className="card">
        {pulled && !rows.length ? <p className="muted">No fuel logged in the last 90 days.</p> : null}
        {rows.length ? (
          <p className="muted">
            Last 90 days:{" "}
            {volumeText(
              rows.reduce((s, e) => s + e.volumeLitres, 0),
              units,
            )}{" "}
            · {money(rows.reduce((s, e) => s + (e.costCents ?? 0), 0))}
            {flagged ? ` · ${flagged} to check` : ""}
          </p>
        ) : null}
        <FuelLog rows={rows} canManage={canManage} vehicleName={vehicleName} />
      </div>
      {canLog ? (
        <div className="maintenance-forms" ref={formArea}>
          <LogFuelForm
            // Started afresh once the store knows this device's vehicle, so it comes chosen.
            key={prefill?.id ?? `new-${myVehicleId ?? ""}`}
            prefill={prefill}
            suggestedVehicleId={myVehicleId}
            onLogged={() => setPrefill(undefined)}
          />
        </div>
      ) : null}
      <FleetExpenses />
    </section>
  );
}
