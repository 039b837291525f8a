import type { FieldFormInput } from "../../shared/fields/field-table";

/** A form input drawn from an entity's field table (shared/fields/field-table.ts `formFields`). */
export type TableFormField = FieldFormInput & { name: string };

/**
 * One input per field of an entity's table that its form asks for, each in its label: the New
 * work order form and the Add a part and Add a vendor forms (docs/decisions/0094, 0100). The
 * `scale` is the kit's (read back by `fromForm`), not the input's.
 */
export function TableInputs({ fields }: { fields: readonly TableFormField[] }) {
  return fields.map(({ name, id, label, type, scale: _scale, ...input }) => (
    <label key={name} htmlFor={id}>
      <span>{label}</span>
      {type === "textarea" ? (
        <textarea className="input" id={id} name={name} rows={2} {...input} />
      ) : (
        <input className="input" id={id} name={name} type={type ?? "text"} {...input} />
      )}
    </label>
  ));
}
