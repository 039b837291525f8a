import { getFormProps, type FormMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { toast } from "sonner";
import { FormError, SubmitButton } from "../components/form";

/** A form of the Costs tab in its card: title, fields, error line, the action and an optional Cancel. */
export function CostFormCard<F extends Record<string, unknown>>(props: {
  title: string;
  form: FormMetadata<F, string[]>;
  pending: boolean;
  action: string;
  cancel?: () => void;
  children: ReactNode;
}) {
  return (
    <form className="card maintenance-form" {...getFormProps(props.form)} aria-label={props.title}>
      <h3>{props.title}</h3>
      {props.children}
      <FormError form={props.form} />
      <div className="form-actions">
        <SubmitButton pending={props.pending}>{props.action}</SubmitButton>
        {props.cancel ? (
          <button type="button" className="button" onClick={props.cancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** Saved through sync: said so, and that it waits for the network when there is none. */
export const savedToast = (what: string) =>
  toast(navigator.onLine ? what : `${what} on this device; it syncs when you are back online`);

export { useWorkspaceToday } from "./use-workspace-today";
