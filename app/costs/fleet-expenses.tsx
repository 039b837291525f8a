import { useCallback, useMemo } from "react";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicles } from "../store";
import { useExpenses } from "../store/costs";
import { AddExpenseForm } from "./expense-forms";
import { ExpenseList, expenseTotalText } from "./expense-list";

/**
 * The fleet's expenses of the last 90 days on the Fuel page (issue 42, docs/decisions/0049), newest
 * first, with "Add expense" for any vehicle. From the synced store, so it opens offline; a
 * vehicle's older expenses are on its Costs tab.
 */
export function FleetExpenses() {
  const rows = useExpenses();
  const vehicles = useVehicles();
  const { pulled } = useStoreStatus();
  const canAdd = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  const names = useMemo(() => new Map(vehicles.map((v) => [v.id, v.name])), [vehicles]);
  const vehicleName = useCallback((id: string) => names.get(id) ?? "", [names]);
  return (
    <section aria-labelledby="fleet-expenses-title" className="fleet-expenses">
      <h2 id="fleet-expenses-title">Expenses</h2>
      <div className="card">
        {pulled && !rows.length ? <p className="muted">No expenses in the last 90 days.</p> : null}
        {rows.length ? <p className="muted">Last 90 days: {expenseTotalText(rows)}</p> : null}
        <ExpenseList rows={rows} canManage={canManage} vehicleName={vehicleName} />
      </div>
      {canAdd ? (
        <div className="maintenance-forms">
          <AddExpenseForm />
        </div>
      ) : null}
    </section>
  );
}
