import { useState } from "react";
import { z } from "zod";
import { expenseFormSchema } from "../../shared/costs/expenses";
import { expenseTable } from "../../shared/costs/expense-fields";
import { SelectFormField } from "../components/form";
import { TableFormFields } from "../components/table-inputs";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useVehicles } from "../store";
import { useExpenseMutations, type ExpenseRow } from "../store/costs";
import { CostFormCard, savedToast, useWorkspaceToday } from "./cost-form-card";

/**
 * "Add expense" and "Edit" on an expense (issue 42): saved as synced mutations
 * (shared/costs/expense-mutators.ts), so they work with no network and show at once; the server applies
 * them with the REST routes' rules when the device is back online. The inputs are the expense
 * table's (shared/costs/expense-fields.ts): the amount is typed in dollars and checked and given in cents.
 */
const addExpenseFormSchema = expenseFormSchema.extend({
  vehicleId: z.string({ required_error: "Choose a vehicle" }).min(1, "Choose a vehicle"),
});
type Fields = Pick<
  ReturnType<typeof useZodForm<typeof expenseFormSchema>>["fields"],
  keyof z.input<typeof expenseFormSchema>
>;

function ExpenseFields({ fields }: { fields: Fields }) {
  return <TableFormFields fields={expenseTable.formFields} conform={fields} />;
}

/** "Add expense" for one vehicle (its Costs tab) or, without `vehicleId`, a vehicle chosen in the form (the Fuel page). */
export function AddExpenseForm({ vehicleId }: { vehicleId?: string }) {
  const { addExpense } = useExpenseMutations();
  const vehicles = useVehicles();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    "add-expense",
    addExpenseFormSchema,
    async (value, submission) => {
      try {
        await addExpense({ id: crypto.randomUUID(), ...value, photoIds });
      } catch {
        return submission.reply({ formErrors: ["Could not save the expense on this device"] });
      }
      savedToast("Expense added");
      setPhotoIds([]);
      return submission.reply({ resetForm: true });
    },
    { date: useWorkspaceToday(), kind: "tolls", vehicleId: vehicleId ?? "" },
  );
  return (
    <CostFormCard title="Add expense" form={form} pending={pending} action="Add expense">
      {vehicleId ? (
        <input type="hidden" name={fields.vehicleId.name} value={vehicleId} />
      ) : (
        <SelectFormField
          field={fields.vehicleId}
          label="Vehicle"
          options={[{ value: "", label: "Choose a vehicle" }, ...vehicles.map((v) => ({ value: v.id, label: v.name }))]}
        />
      )}
      <ExpenseFields fields={fields} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </CostFormCard>
  );
}

/** "Edit" on an expense (owners and admins): the add form's fields, filled in; an emptied note is cleared. */
export function EditExpenseForm({ expense, close }: { expense: ExpenseRow; close: () => void }) {
  const { editExpense } = useExpenseMutations();
  const [photoIds, setPhotoIds] = useState<string[]>(expense.photoIds);
  const { form, fields, pending } = useZodForm(
    `edit-expense-${expense.id}`,
    expenseFormSchema,
    async (value, submission) => {
      try {
        // an emptied note reads back as null: cleared
        await editExpense({ id: expense.id, ...value, photoIds });
      } catch {
        return submission.reply({ formErrors: ["Could not save the expense on this device"] });
      }
      savedToast("Expense saved");
      close();
    },
    expenseTable.formValuesOf(expense),
  );
  return (
    <CostFormCard title="Edit expense" form={form} pending={pending} action="Save expense" cancel={close}>
      <ExpenseFields fields={fields} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </CostFormCard>
  );
}
