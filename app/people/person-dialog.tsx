import { getFormProps } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { driverFormSchema, type Driver, type DriverArgs } from "../../shared/fleet/driver";
import { Field, SubmitButton } from "../components/form";
import { useZodForm } from "../components/use-zod-form";
import { useMutation } from "../store";

/**
 * The New Person dialog, and the same form to edit one: name required, e-mail and phone checked
 * when given (shared/fleet/driver.ts). Saved as a synced mutation, so it works offline like vehicle edits.
 */
export function PersonDialog({ editing, onClose }: { editing: Driver | "new"; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const create = useMutation<DriverArgs>("createDriver");
  const update = useMutation<DriverArgs>("updateDriver");
  const existing = editing === "new" ? null : editing;
  const { form, fields, pending } = useZodForm(
    `person-${existing?.id ?? "new"}`,
    driverFormSchema,
    async (value) => {
      if (existing) await update({ id: existing.id, ...value });
      else await create({ id: crypto.randomUUID(), ...value });
      toast(existing ? "Person updated" : "Person added");
      onClose();
    },
    { name: existing?.name ?? "", email: existing?.email ?? "", phone: existing?.phone ?? "" },
  );
  const title = existing ? "Edit Person" : "New Person";
  return (
    <dialog ref={dialog} className="card dialog" aria-label={title} onClose={onClose}>
      <form {...getFormProps(form)}>
        <h2>{title}</h2>
        <Field field={fields.name} label="Name" autoFocus />
        <Field field={fields.email} label="Email" type="email" />
        <Field field={fields.phone} label="Phone" type="tel" />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Close
          </button>
          <SubmitButton pending={pending}>Save</SubmitButton>
        </div>
      </form>
    </dialog>
  );
}
