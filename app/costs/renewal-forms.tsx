import { useState } from "react";
import {
  DEFAULT_REMIND_DAYS_BEFORE,
  renewalFormSchema,
  renewalTitle,
  renewBodySchema,
} from "../../shared/costs/renewals";
import { renewalTable } from "../../shared/costs/renewal-fields";
import { Field } from "../components/form";
import { TableFormFields } from "../components/table-inputs";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useRenewalMutations, type RenewalRow } from "../store/costs";
import { CostFormCard, savedToast } from "./cost-form-card";

/**
 * "Add renewal" (owners and admins) and "Renew" (members and up) on a vehicle's Costs tab (issue
 * 42): synced mutations (shared/costs/renewal-mutators.ts), offline too, applied by the server with the
 * REST routes' rules. The document (a registration card, a policy) is a photo. The Add form's
 * inputs are the renewal table's (shared/costs/renewal-fields.ts), checked one by one.
 */
export function AddRenewalForm({ vehicleId }: { vehicleId: string }) {
  const { addRenewal } = useRenewalMutations();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    "add-renewal",
    renewalFormSchema,
    async (value, submission) => {
      try {
        await addRenewal({ id: crypto.randomUUID(), vehicleId, ...value, photoIds });
      } catch {
        return submission.reply({ formErrors: ["Could not save the renewal on this device"] });
      }
      savedToast("Renewal added");
      setPhotoIds([]);
      return submission.reply({ resetForm: true });
    },
    { kind: "registration", remindDaysBefore: DEFAULT_REMIND_DAYS_BEFORE },
  );
  return (
    <CostFormCard title="Add renewal" form={form} pending={pending} action="Add renewal">
      <TableFormFields fields={renewalTable.formFields} conform={fields} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add document" />
    </CostFormCard>
  );
}

/** "Renew": the new due date, and the new document if there is one (else the old one stays). */
export function RenewForm({ renewal, close }: { renewal: RenewalRow; close: () => void }) {
  const { renew } = useRenewalMutations();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    `renew-${renewal.id}`,
    renewBodySchema.pick({ dueDate: true }),
    async (value, submission) => {
      try {
        await renew({ id: renewal.id, dueDate: value.dueDate, ...(photoIds.length ? { photoIds } : {}) });
      } catch {
        return submission.reply({ formErrors: ["Could not save the renewal on this device"] });
      }
      savedToast("Renewed");
      close();
    },
  );
  return (
    <CostFormCard title={`Renew ${renewalTitle(renewal)}`} form={form} pending={pending} action="Renew" cancel={close}>
      <Field field={fields.dueDate} label="New due date" type="date" />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add document" />
    </CostFormCard>
  );
}
