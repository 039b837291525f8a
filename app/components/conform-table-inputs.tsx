import type { FieldMetadata } from "@conform-to/react";
import type { TableFormField } from "./table-inputs";
import { Field } from "./form";

type ConformField = FieldMetadata<string | number | null | undefined>;

/**
 * The inputs of an entity's field table (shared/fields/field-table.ts `formFields`) in a form that
 * checks itself with conform and the shared zod schema (the Service tab's forms), each with its
 * error under it: `TableInputs` for such forms. A number input takes a decimal keyboard unless it
 * steps by whole units. A scaled input (dollars for a cost kept in cents) is typed in its own
 * units; `scaledToStored` turns the parsed value back into the field's.
 */
export function ConformTableInputs<K extends string>({
  fields,
  form,
}: {
  fields: readonly (TableFormField & { name: K })[];
  form: Record<K, ConformField>;
}) {
  return fields.map(({ name, label, type, placeholder, min, maxLength, step }) => (
    <Field
      key={name}
      field={form[name]}
      label={label}
      type={type === "textarea" ? "text" : type}
      placeholder={placeholder}
      min={min}
      maxLength={maxLength}
      step={step}
      inputMode={type === "number" ? (step === "1" ? "numeric" : "decimal") : undefined}
    />
  ));
}

/** The parsed form value with each scaled field in the field's units (dollars to whole cents); none stays none. */
export function scaledToStored<V extends object>(fields: readonly TableFormField[], value: V): V {
  const out = { ...value } as Record<string, unknown>;
  for (const { name, scale } of fields) {
    const typed = out[name];
    if (scale !== undefined && typeof typed === "number") out[name] = Math.round(typed * scale);
  }
  return out as V;
}
