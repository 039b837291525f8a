import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { Spinner } from "./spinner";

type InputType = "text" | "email" | "password" | "number" | "tel" | "date" | "datetime-local";

/** A labelled input wired to a conform field, with its error under it. */
export function Field({
  field,
  label,
  type = "text",
  hint,
  ...rest
}: {
  field: FieldMetadata<string | number | null | undefined>;
  label: string;
  type?: InputType;
  /** A line under the label that helps fill the field (kept for screen readers via aria-describedby). */
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "form">) {
  const props = getInputProps(field, { type });
  return (
    <ConformFrame field={field} label={label} hint={hint}>
      {(describedBy) => <input className="input" {...props} {...rest} key={props.key} aria-describedby={describedBy} />}
    </ConformFrame>
  );
}

/**
 * The label, hint and error line around a control wired to a conform field; `children` gets the
 * ids the control must point at (aria-describedby).
 */
function ConformFrame({
  field,
  label,
  hint,
  children,
}: {
  field: FieldMetadata<string | number | null | undefined>;
  label: string;
  hint?: ReactNode;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  // An empty message marks the field invalid without words (docs/product.md section 8, workspace creation).
  const message = field.errors?.filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {hint ? (
        <div className="field-hint" id={field.descriptionId}>
          {hint}
        </div>
      ) : null}
      {children(
        [hint ? field.descriptionId : null, message ? field.errorId : null].filter(Boolean).join(" ") || undefined,
      )}
      {message ? (
        <div className="field-error" id={field.errorId} role="alert">
          {message}
        </div>
      ) : null}
    </div>
  );
}

/** docs/product.md section 4: buttons are disabled and show a spinner while submitting. */
export function SubmitButton({
  pending,
  children,
  disabled,
}: {
  pending: boolean;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <button
      type="submit"
      className="button primary block"
      disabled={pending || disabled}
      aria-busy={pending || undefined}
    >
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

/** What became of a form's last save ("Saved", "Not saved"), read out after its button: nothing when there is none. */
export function StatusLine({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <span className="muted" role="status">
      {" "}
      {message}
    </span>
  );
}

/*
 * The form kit (docs/decisions/0031): every form builds on these, so labels, hints, errors,
 * spacing and tap targets are the same everywhere (styles.css, "one form kit and its scale").
 * `Field` and `SubmitButton` above are the conform-wired pair; the pieces below also serve forms
 * that read their FormData themselves.
 */

/** Ids a control points at: its hint and its error line (aria-describedby). */
function describedBy(id: string, hint?: ReactNode, error?: string | null) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** A labelled control with an optional hint and its error line. `children` receives the ids to wire. */
export function FormField({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: (control: { id: string; "aria-describedby"?: string; "aria-invalid"?: true }) => ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      {children({ id, "aria-describedby": describedBy(id, hint, error), "aria-invalid": error ? true : undefined })}
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A text, number, url… input inside a FormField. */
export function InputField({
  id,
  label,
  hint,
  error,
  ...input
}: { id: string; label: string; hint?: ReactNode; error?: string | null } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id"
>) {
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(control) => <input className="input" {...input} {...control} />}
    </FormField>
  );
}

/** A multi-line input inside a FormField. */
export function TextAreaField({
  id,
  label,
  hint,
  error,
  ...area
}: { id: string; label: string; hint?: ReactNode; error?: string | null } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id"
>) {
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(control) => <textarea className="input textarea" {...area} {...control} />}
    </FormField>
  );
}

export interface Choice {
  value: string;
  label: string;
}

/** A native select (the phone's own picker; keyboard and screen readers know it) inside a FormField. */
export function SelectField({
  id,
  label,
  hint,
  error,
  options,
  ...select
}: { id: string; label: string; hint?: ReactNode; error?: string | null; options: Choice[] } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "id"
>) {
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {(control) => (
        <select className="input" {...select} {...control}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Checkboxes (several of `options`, each submitted under `name`) or radios (one), as a fieldset with its legend. */
function ChoiceGroup({
  kind,
  legend,
  name,
  options,
  defaultValues,
  hint,
  error,
  empty,
  inline,
  onChange,
}: {
  kind: "checkbox" | "radio";
  legend: string;
  name: string;
  options: Choice[];
  defaultValues?: readonly string[];
  hint?: ReactNode;
  error?: string | null;
  empty?: ReactNode;
  inline?: boolean;
  onChange?: (value: string, checked: boolean) => void;
}) {
  const id = `${name}-group`;
  return (
    <fieldset className="field" aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      {hint ? (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      ) : null}
      <div className={inline ? "choice-list inline" : "choice-list"}>
        {options.length === 0 && empty ? <span className="muted">{empty}</span> : null}
        {options.map((o) => (
          <label key={o.value} className="choice">
            <input
              type={kind}
              name={name}
              value={o.value}
              defaultChecked={defaultValues?.includes(o.value)}
              onChange={(e) => onChange?.(o.value, e.target.checked)}
            />
            {o.label}
          </label>
        ))}
      </div>
      {error ? (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}

type GroupProps = Omit<Parameters<typeof ChoiceGroup>[0], "kind">;

export function CheckboxGroup(props: GroupProps) {
  return <ChoiceGroup kind="checkbox" {...props} />;
}

export function RadioGroup(props: GroupProps) {
  return <ChoiceGroup kind="radio" {...props} />;
}

/** A submit button for forms that size it themselves (not full width): spinner and disabled while pending. */
export function Submit({
  pending = false,
  children,
  disabled,
}: {
  pending?: boolean;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <button type="submit" className="button primary" disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending ? <Spinner /> : null}
      {children}
    </button>
  );
}

/**
 * A destructive action that asks first: the first press turns it into "<question> [confirm] [Cancel]"
 * in place (focus moves to Cancel, the safe choice); only the confirm button acts. No dialog
 * library: the question stays next to what it is about, on a phone too.
 */
export function ConfirmAction({
  label,
  question,
  confirmLabel,
  onConfirm,
  ariaLabel,
  className = "button danger",
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown> | void;
  ariaLabel?: string;
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  if (!asking) {
    return (
      <button type="button" className={className} aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
    } finally {
      setPending(false);
      setAsking(false);
    }
  };
  return (
    <span className="confirm-row" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        className="button danger primary"
        disabled={pending}
        aria-busy={pending || undefined}
        onClick={() => void confirm()}
      >
        {pending ? <Spinner /> : null}
        {confirmLabel}
      </button>
      <button type="button" className="button" autoFocus onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

/** A labelled select wired to a conform field (the select counterpart of `Field`). */
export function SelectFormField({
  field,
  label,
  options,
  hint,
}: {
  field: FieldMetadata<string | null | undefined>;
  label: string;
  options: Choice[];
  hint?: ReactNode;
}) {
  const props = getSelectProps(field);
  return (
    <ConformFrame field={field} label={label} hint={hint}>
      {(describedBy) => (
        <select className="input" {...props} key={props.key} aria-describedby={describedBy}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </ConformFrame>
  );
}

/** A labelled textarea wired to a conform field (the multi-line counterpart of `Field`). */
export function TextAreaFormField({
  field,
  label,
  rows = 3,
  hint,
}: {
  field: FieldMetadata<string | null | undefined>;
  label: string;
  rows?: number;
  hint?: ReactNode;
}) {
  const props = getTextareaProps(field);
  return (
    <ConformFrame field={field} label={label} hint={hint}>
      {(describedBy) => (
        <textarea className="input textarea" rows={rows} {...props} key={props.key} aria-describedby={describedBy} />
      )}
    </ConformFrame>
  );
}
