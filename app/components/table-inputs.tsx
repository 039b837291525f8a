import type { FieldMetadata } from "@conform-to/react";
import { Fragment, useState, type ReactNode } from "react";
import { inputValueOf, type FieldFormInput } from "../../shared/fields/field-table";
import { Field, SelectFormField, TextAreaFormField } from "./form";

/** A form input drawn from an entity's field table (shared/fields/field-table.ts `formFields`). */
export type TableFormField = FieldFormInput & { name: string };

/** What a person has typed into an edit form, by field name, until it is saved or given up. */
export type TableDraft = Readonly<Record<string, string>>;

/**
 * One input per field of an entity's table that its form asks for, each in its label: the New
 * work order form, a work order's details edited later, and the parts and vendors forms (docs/decisions/0094, 0100).
 * `values`: what the entity keeps, when editing it (a scaled input shows it in its own units: cents
 * as dollars); `idPrefix` keeps the inputs' ids apart where an edit form shares a page with the Add
 * form. The `scale` is read back by the kit's `fromForm`.
 *
 * Editing (`values` given), the inputs are controlled: a field typed in shows what was typed, every
 * other field the kept value as it is now, so another device's save shows in the fields not being
 * typed in (and is not overwritten by a stale copy on Save), and never throws typing away. (A
 * browser keeps an uncontrolled input's value once React has written it, so following
 * `defaultValue` does not do this.) What was typed lives as long as the inputs, or in `draft`
 * (`useTableDraft`) for a form that stays open after a save and clears it then.
 */
export function TableInputs({
  fields,
  values,
  idPrefix,
  draft,
}: {
  fields: readonly TableFormField[];
  values?: object;
  idPrefix?: string;
  draft?: ReturnType<typeof useTableDraft>;
}) {
  const own = useTableDraft();
  const typing = values ? (draft ?? own) : null;
  // `options` are a select's (TableFormFields draws choices), not an <input>'s attribute
  return fields.map(({ name, id: fieldId, label, type, scale, options: _options, ...input }) => {
    const shown = String(inputValueOf((values as Record<string, unknown> | undefined)?.[name], scale));
    const value = typing
      ? {
          value: typing.typed[name] ?? shown,
          onChange: (e: { target: { value: string } }) => typing.type(name, e.target.value),
        }
      : { defaultValue: shown };
    const id = idPrefix ? `${idPrefix}-${fieldId}` : fieldId;
    return (
      <label key={name} htmlFor={id}>
        <span>{label}</span>
        {type === "textarea" ? (
          <textarea className="input" id={id} name={name} rows={2} {...value} {...input} />
        ) : (
          <input className="input" id={id} name={name} type={type ?? "text"} {...value} {...input} />
        )}
      </label>
    );
  });
}

/** The fields typed into an edit form; `clear` once saved, so every field shows the kept value again. */
export function useTableDraft() {
  const [typed, setTyped] = useState<TableDraft>({});
  return {
    typed,
    type: (name: string, text: string) => setTyped((d) => ({ ...d, [name]: text })),
    clear: () => setTyped({}),
  };
}

/** A submitted form's text for each input, as a table's `fromForm` reads it back (absent: ""). */
export const formReader = (data: FormData) => (name: string) => String(data.get(name) ?? "");

type ConformField = FieldMetadata<string | number | null | undefined>;

/**
 * The same inputs wired to a conform form (app/components/use-zod-form.ts), for a form that shows
 * each input's message under it as it is typed: the expense, fuel, renewal, service and vehicle
 * settings forms (docs/decisions/0103). The form's schema is the table's `formChecks`, so the
 * submitted value is the body's (cents, not dollars); conform names the inputs' ids (`id` is left
 * to it), a choice is a select of its options. `drawn` puts a field's own element in its place (a
 * VIN with its Decode button).
 */
export function TableFormFields({
  fields,
  conform,
  drawn,
}: {
  fields: readonly TableFormField[];
  /** conform's fields of the form (`useZodForm`'s), which have one for each of `fields`, and may have others */
  conform: object;
  drawn?: Readonly<Record<string, ReactNode>>;
}) {
  return fields.map(({ name, id: _id, label, type, scale: _scale, options, ...input }) => {
    if (drawn?.[name]) return <Fragment key={name}>{drawn[name]}</Fragment>;
    const field = (conform as Record<string, ConformField>)[name]!;
    if (type === "select")
      return (
        <SelectFormField
          key={name}
          field={field as FieldMetadata<string>}
          label={label}
          options={[...(options ?? [])]}
        />
      );
    if (type === "textarea")
      return <TextAreaFormField key={name} field={field as FieldMetadata<string>} label={label} />;
    const decimal = type === "number" && input.step !== undefined && input.step !== "1";
    return (
      <Field
        key={name}
        field={field}
        label={label}
        type={type}
        inputMode={type === "number" ? (decimal ? "decimal" : "numeric") : undefined}
        {...input}
      />
    );
  });
}
