import type { FieldFormInput } from "../../shared/fields/field-table";
import { WORK_ORDER_FORM_FIELDS, workOrderTableFromText } from "../../shared/maintenance/work-order-fields";

/** A form input drawn from an entity's field table (shared/fields/field-table.ts `formFields`). */
export type TableFormField = FieldFormInput & { name: string };

/**
 * One input per field of an entity's table that its form asks for, each in its label: the New
 * work order form, a work order's details edited later, and the parts and vendors forms (docs/decisions/0094, 0100).
 * `values`: what the entity keeps, when editing it (a scaled input shows it in its own units: cents
 * as dollars); `idPrefix` keeps the inputs' ids apart where an edit form shares a page with the Add
 * form. The `scale` is read back by the kit's `fromForm`.
 */
export function TableInputs({
  fields,
  values,
  idPrefix,
}: {
  fields: readonly TableFormField[];
  values?: object;
  idPrefix?: string;
}) {
  return fields.map(({ name, id: fieldId, label, type, scale, ...input }) => {
    const kept = (values as Record<string, string | number | null | undefined> | undefined)?.[name];
    const defaultValue = kept === null || kept === undefined ? undefined : scale ? Number(kept) / scale : kept;
    const id = idPrefix ? `${idPrefix}-${fieldId}` : fieldId;
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
