import { useParams } from "@remix-run/react";
import { useCallback } from "react";
import type { Expense } from "../../shared/costs/expenses";
import { AddExpenseForm } from "../costs/expense-forms";
import { ExpenseList, expenseTotalText } from "../costs/expense-list";
import { useOlder, withOlder } from "../maintenance/use-older";
import { ShowOlder } from "../maintenance/show-older";
import { useCan } from "../session/session";
import { useStoreStatus, useVehicle } from "../store";
import { expenseRowOf, useExpenses, useRenewals, type ExpenseRow } from "../store/costs";
import { AddRenewalForm } from "../costs/renewal-forms";
import { RenewalList } from "../costs/renewal-list";
import { useWorkspaceToday } from "../costs/use-workspace-today";

const expensesOf = (body: unknown) => (body as { expenses: Expense[] }).expenses.map(expenseRowOf);

/**
 * A vehicle's Costs tab (issue 42, docs/decisions/0049): its renewals (registration, insurance...)
 * with their status today and "Renew", and its expenses beyond fuel and service
 * (insurance, tolls, a repair...) with receipts, "Add expense" for members, Edit and Delete for
 * owners and admins. Its own tab, not the Fuel tab's: fuel is logged at the pump every few days,
 * these are paperwork that comes by mail, and the Fuel tab is already long on a phone. From the
 * synced store (the last 90 days, offline too); "Show older" reads the rest from the server.
 */
export default function VehicleCosts() {
  const { vehicleId = "" } = useParams();
  const vehicle = useVehicle(vehicleId);
  const synced = useExpenses(vehicleId);
  const older = useOlder<ExpenseRow>(
    `expenses?vehicleId=${encodeURIComponent(vehicleId)}`,
    useCallback(expensesOf, []),
  );
  const canAdd = useCan("fleet.edit");
  const canManage = useCan("maintenance.manage");
  const { pulled } = useStoreStatus();
  const renewals = useRenewals(useWorkspaceToday(), vehicleId);
  if (!vehicle) return null;
  const rows = withOlder(synced, older.rows);
  return (
    <div className="vehicle-costs">
      <section aria-label="Renewals">
        <h2>Renewals</h2>
        {pulled && !renewals.length ? <p className="muted">No renewals set up.</p> : null}
        <RenewalList rows={renewals} canRenew={canAdd} canManage={canManage} />
        {canManage ? (
          <div className="maintenance-forms">
            <AddRenewalForm vehicleId={vehicleId} />
          </div>
        ) : null}
      </section>
      <section aria-label="Expenses">
        <h2>Expenses</h2>
        {pulled && !rows.length ? <p className="muted">No expenses in the last 90 days.</p> : null}
        {rows.length ? (
          <p className="muted">
            {older.rows ? "All" : "Last 90 days"}: {expenseTotalText(rows)}
          </p>
        ) : null}
        <ExpenseList rows={rows} canManage={canManage} />
        <ShowOlder older={older} />
      </section>
      {canAdd ? (
        <div className="maintenance-forms">
          <AddExpenseForm vehicleId={vehicleId} />
        </div>
      ) : null}
    </div>
  );
}
