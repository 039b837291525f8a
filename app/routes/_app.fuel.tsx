import { useCallback, useMemo } from "react";
import { FuelLog, gallonsText } from "../fuel/fuel-log";
import { LogFuelForm } from "../fuel/fuel-forms";
import { money } from "../maintenance/format";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicles } from "../store";
import { useFuelEntries } from "../store/fuel";
import { FleetExpenses } from "../costs/fleet-expenses";

/**
 * The fleet's Fuel page (issue 42): every vehicle's fill-ups of the last 90 days, newest first,
 * with the readings to check, and "Log fuel" for any vehicle. From the synced store, so it opens
 * offline (ADR 0045); a vehicle's older fill-ups are on its Fuel tab.
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
  return (
    <section className="page fuel">
      <header className="page-header">
        <h1>Fuel</h1>
      </header>
      <div className="card">
        {pulled && !rows.length ? <p className="muted">No fuel logged in the last 90 days.</p> : null}
        {rows.length ? (
          <p className="muted">
            Last 90 days: {gallonsText(rows.reduce((s, e) => s + e.volumeLitres, 0))} ·{" "}
            {money(rows.reduce((s, e) => s + (e.costCents ?? 0), 0))}
            {flagged ? ` · ${flagged} to check` : ""}
          </p>
        ) : null}
        <FuelLog rows={rows} canManage={canManage} vehicleName={vehicleName} />
      </div>
      {canLog ? (
        <div className="maintenance-forms">
          <LogFuelForm />
        </div>
      ) : null}
      <FleetExpenses />
    </section>
  );
}
