import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { Spinner } from "./spinner";

type InputType = "text" | "email" | "password" | "number" | "tel";

/** A labelled input wired to a conform field, with its error under it. */
export function Field({
  field,
  label,
  type = "text",
  ...rest
}: {
  field: FieldMetadata<string | number | null | undefined>;
  label: string;
  type?: InputType;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "form">) {
  // An empty message marks the field invalid without words (docs/product.md section 8, workspace creation).
  const message = field.errors?.filter(Boolean).join(" ");
  const props = getInputProps(field, { type });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input
        className="input"
        {...props}
        {...rest}
        key={props.key}
        aria-describedby={message ? field.errorId : undefined}
      />
      {message ? (
        <div className="field-error" id={field.errorId} role="alert">
          {message}
        </div>
      ) : null}
    </div>
  );
}

/** docs/product.md section 4: buttons are disabled and show a spinner while submitting. */
export function SubmitButton({ pending, children, disabled }: { pending: boolean; children: ReactNode; disabled?: boolean }) {
  return (
    <button type="submit" className="button primary block" disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}

/** The form's own error (a refusal that names no field), where the form shows it. */
export function FormError({ form }: { form: { errors?: string[] } }) {
  if (!form.errors?.length) return null;
  return (
    <div className="field-error" role="alert">
      {form.errors.join(" ")}
    </div>
  );
}

/** A form's error held in state (forms without conform): nothing when there is none. */
export function ErrorLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="field-error">
      {message}
    </p>
  );
}
