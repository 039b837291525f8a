import type { FieldFormInput } from "../../shared/fields/field-table";
import { WORK_ORDER_FORM_FIELDS, workOrderTableFromText } from "../../shared/maintenance/work-order-fields";

/** A form input drawn from an entity's field table (shared/fields/field-table.ts `formFields`). */
export type TableFormField = FieldFormInput & { name: string };

/**
 * One input per field of an entity's table that its form asks for, each in its label: the New
 * work order form, a work order's details edited later, and the Add a part and Add a vendor forms
 * (docs/decisions/0094, 0100). `values`: what the entity keeps, when editing it. The `scale` is the
 * kit's (read back by `fromForm`), not the input's.
 */
export function TableInputs({
  fields,
  values,
}: {
  fields: readonly TableFormField[];
  values?: Partial<Record<string, string | number | null>>;
}) {
  return fields.map(({ name, id, label, type, scale: _scale, ...input }) => {
    const defaultValue = values?.[name] ?? undefined;
    return (
      <label key={name} htmlFor={id}>
        <span>{label}</span>
        {type === "textarea" ? (
          <textarea className="input" id={id} name={name} rows={2} defaultValue={defaultValue ?? ""} {...input} />
        ) : (
          <input className="input" id={id} name={name} type={type ?? "text"} defaultValue={defaultValue} {...input} />
        )}
      </label>
    );
  });
}

const WORK_ORDER_FORM_NAMES = WORK_ORDER_FORM_FIELDS.map((f) => f.name);

/** A work order form's table fields (new, or its details) as the mutators take them: empty is null. */
export const workOrderTableValuesIn = (data: FormData) =>
  workOrderTableFromText(
    Object.fromEntries(WORK_ORDER_FORM_NAMES.map((name) => [name, String(data.get(name) ?? "")])),
    WORK_ORDER_FORM_NAMES,
  );
