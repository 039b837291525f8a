import { useState } from "react";
import { expenseKindLabels } from "../../shared/costs/expenses";
import { ConfirmAction } from "../components/form";
import { money } from "../maintenance/format";
import { PhotoStrip } from "../photos/photo-picker";
import { useExpenseMutations, type ExpenseRow } from "../store/costs";
import { savedToast } from "./cost-form-card";
import { EditExpenseForm } from "./expense-forms";

/**
 * A list of expenses (a vehicle's Costs tab, the fleet Fuel page): the day, the kind, the amount,
 * the note and the receipt. Owners and admins edit or delete one in place.
 */
export function ExpenseList({
  rows,
  canManage,
  vehicleName,
}: {
  rows: ExpenseRow[];
  canManage: boolean;
  /** The fleet page names each expense's vehicle. */
  vehicleName?: (vehicleId: string) => string;
}) {
  return (
    <ul className="maintenance-list" aria-label="Expenses">
      {rows.map((e) => (
        <ExpenseLine key={e.id} expense={e} canManage={canManage} vehicle={vehicleName?.(e.vehicleId)} />
      ))}
    </ul>
  );
}

function ExpenseLine({
  expense: e,
  canManage,
  vehicle,
}: {
  expense: ExpenseRow;
  canManage: boolean;
  vehicle?: string;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="maintenance-row expense-row">
      <strong>{e.date}</strong>
      {vehicle ? <span>{vehicle}</span> : null}
      <span>
        {expenseKindLabels[e.kind]} · {money(e.costCents)}
      </span>
      {e.note ? <span className="muted">{e.note}</span> : null}
      <PhotoStrip ids={e.photoIds} />
      {canManage && editing ? <EditExpenseForm expense={e} close={() => setEditing(false)} /> : null}
      {canManage && !editing ? <ExpenseActions expense={e} edit={() => setEditing(true)} /> : null}
    </li>
  );
}

function ExpenseActions({ expense, edit }: { expense: ExpenseRow; edit: () => void }) {
  const { deleteExpense } = useExpenseMutations();
  const what = `the ${expenseKindLabels[expense.kind].toLowerCase()} expense of ${expense.date}`;
  return (
    <span className="row-actions maintenance-actions">
      <button type="button" className="button" aria-label={`Edit ${what}`} onClick={edit}>
        Edit
      </button>
      <ConfirmAction
        label="Delete"
        ariaLabel={`Delete ${what}`}
        question="Delete this expense?"
        confirmLabel="Delete expense"
        onConfirm={async () => {
          await deleteExpense({ id: expense.id });
          savedToast("Expense deleted");
        }}
      />
    </span>
  );
}

/** "$1,234.50 over 3 expenses" */
export const expenseTotalText = (rows: readonly ExpenseRow[]) =>
  `${money(rows.reduce((s, e) => s + e.costCents, 0))} over ${rows.length} ${rows.length === 1 ? "expense" : "expenses"}`;
