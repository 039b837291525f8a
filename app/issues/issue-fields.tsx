import { getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

/**
 * A select and a textarea laid out like app/components/form.tsx's Field (label, control, error),
 * for the issue forms; Field itself takes inputs only.
 */
function Labelled({ field, label, children }: { field: FieldMetadata<unknown>; label: string; children: ReactNode }) {
  const message = field.errors?.filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {children}
      {message ? (
        <div className="field-error" id={field.errorId} role="alert">
          {message}
        </div>
      ) : null}
    </div>
  );
}

export function SelectField({ field, label, options }: { field: FieldMetadata<string | null | undefined>; label: string; options: { value: string; label: string }[] }) {
  const props = getSelectProps(field);
  return (
    <Labelled field={field as FieldMetadata<unknown>} label={label}>
      <select className="input" {...props} key={props.key}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function TextareaField({ field, label, rows = 3 }: { field: FieldMetadata<string | null | undefined>; label: string; rows?: number }) {
  const props = getTextareaProps(field);
  return (
    <Labelled field={field as FieldMetadata<unknown>} label={label}>
      <textarea className="input textarea" rows={rows} {...props} key={props.key} />
    </Labelled>
  );
}
