import { WORK_ORDER_FORM_FIELDS, workOrderTableFromText } from "../../shared/maintenance/work-order-fields";
import type { WorkOrderTableValues } from "../../shared/maintenance/work-order-fields";

const FORM_NAMES = WORK_ORDER_FORM_FIELDS.map((f) => f.name);

/**
 * The table's fields a form asks for (shared/maintenance/work-order-fields.ts), as the mutators
 * take them: empty is null. The same for a new order and for an order's details edited later.
 */
export const workOrderTableValuesIn = (data: FormData) =>
  workOrderTableFromText(
    Object.fromEntries(FORM_NAMES.map((name) => [name, String(data.get(name) ?? "")])),
    FORM_NAMES,
  );

/** One input per table field the forms ask for, each in its label, starting from `values` when editing. */
export function WorkOrderTableInputs({ values }: { values?: WorkOrderTableValues }) {
  return WORK_ORDER_FORM_FIELDS.map(({ name, id, label, type, ...input }) => {
    const defaultValue = values?.[name] ?? "";
    return (
      <label key={name} htmlFor={id}>
        <span>{label}</span>
        {type === "textarea" ? (
          <textarea className="input" id={id} name={name} rows={2} defaultValue={defaultValue} {...input} />
        ) : (
          <input className="input" id={id} name={name} type={type ?? "text"} defaultValue={defaultValue} {...input} />
        )}
      </label>
    );
  });
}
