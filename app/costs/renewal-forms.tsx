import { useState } from "react";
import { z } from "zod";
import {
  DEFAULT_REMIND_DAYS_BEFORE,
  renewalKindLabels,
  renewalKinds,
  renewalTitle,
  renewBodySchema,
} from "../../shared/costs/renewals";
import { daySchema } from "../../shared/maintenance/service";
import { Field, SelectFormField } from "../components/form";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useRenewalMutations, type RenewalRow } from "../store/costs";
import { CostFormCard, savedToast } from "./cost-form-card";

/**
 * "Add renewal" (owners and admins) and "Renew" (members and up) on a vehicle's Costs tab (issue
 * 42): synced mutations (shared/costs/renewal-mutators.ts), offline too, applied by the server with the
 * REST routes' rules. The document (a registration card, a policy) is a photo.
 */
const kindOptions = renewalKinds.map((k) => ({ value: k, label: renewalKindLabels[k] }));
const addRenewalFormSchema = z.object({
  kind: z.enum(renewalKinds),
  name: z.string().trim().max(100, "At most 100 characters").optional(),
  dueDate: daySchema,
  remindDaysBefore: z
    .number({ invalid_type_error: "Enter a number of days" })
    .int("Whole days")
    .min(0, "0 or more")
    .max(366, "At most 366 days")
    .default(DEFAULT_REMIND_DAYS_BEFORE),
});

export function AddRenewalForm({ vehicleId }: { vehicleId: string }) {
  const { addRenewal } = useRenewalMutations();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    "add-renewal",
    addRenewalFormSchema,
    async (value, submission) => {
      try {
        await addRenewal({ id: crypto.randomUUID(), vehicleId, ...value, name: value.name || null, photoIds });
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
      <SelectFormField field={fields.kind} label="Kind" options={kindOptions} />
      <Field field={fields.name} label="Name" placeholder="e.g. Harbour permit (optional)" />
      <Field field={fields.dueDate} label="Due date" type="date" />
      <Field field={fields.remindDaysBefore} label="Remind days before" type="number" inputMode="numeric" />
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
