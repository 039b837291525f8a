import { getFormProps, type FormMetadata } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { isActiveStatus } from "../../shared/maintenance/issues";
import {
  serviceEntryFormSchema,
  serviceScheduleFormSchema,
  type ServiceSchedule,
} from "../../shared/maintenance/service";
import { serviceEntryTable } from "../../shared/maintenance/service-entry-fields";
import { serviceScheduleTable } from "../../shared/maintenance/service-schedule-fields";
import { TableFormFields } from "../components/table-inputs";
import { CheckboxGroup, Field, FormError, SubmitButton } from "../components/form";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useIssues } from "../store/issues";
import { useServiceMutations } from "../store/maintenance";

/**
 * The Service tab's forms (issue 32): saved as synced mutations (shared/maintenance/service-mutators.ts), so
 * they work with no network and show on the tab at once; the server applies them with the REST
 * routes' rules when the device is back online (a refused one goes away, a role's refusal with a
 * toast). The shared form schemas say what is wrong on each field before anything is saved.
 */

/** Said once the change is in the store: saved, or saved to sync later. */
const saved = (what: string) =>
  toast(navigator.onLine ? `${what}` : `${what} on this device; it syncs when you are back online`);

function FormCard<F extends Record<string, unknown>>({
  title,
  form,
  pending,
  children,
  action,
  cancel,
}: {
  title: string;
  form: FormMetadata<F, string[]>;
  pending: boolean;
  children: ReactNode;
  action: string;
  /** A form opened for one thing (an edit) closes without saving. */
  cancel?: () => void;
}) {
  return (
    <form className="card maintenance-form" {...getFormProps(form)} aria-label={title}>
      <h3>{title}</h3>
      {children}
      <FormError form={form} />
      {cancel ? (
        <div className="form-actions">
          <SubmitButton pending={pending}>{action}</SubmitButton>
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
        </div>
      ) : (
        <SubmitButton pending={pending}>{action}</SubmitButton>
      )}
    </form>
  );
}

/** "Log service": what was done, when, at which odometer, for how much; it restarts the schedules ticked and resolves the issues ticked. */
export function LogServiceForm({
  vehicleId,
  schedules,
  done,
}: {
  vehicleId: string;
  schedules: ServiceSchedule[];
  done: () => void;
}) {
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const openIssues = useIssues().filter((i) => i.vehicleId === vehicleId && isActiveStatus(i.status));
  const { form, fields, pending } = useLogService(vehicleId, photoIds, () => {
    setPhotoIds([]);
    done();
  });
  return (
    <FormCard title="Log service" form={form} pending={pending} action="Log service">
      <Field field={fields.date} label="Date" type="date" />
      <TableFormFields fields={serviceEntryTable.formFields} conform={fields} />
      {schedules.length ? (
        <CheckboxGroup
          legend="Completes"
          name={fields.scheduleIds.name}
          options={schedules.map((s) => ({ value: s.id, label: s.name }))}
          defaultValues={schedules.filter((s) => s.status !== "ok").map((s) => s.id)}
          error={fields.scheduleIds.errors?.join(" ")}
        />
      ) : null}
      {openIssues.length ? (
        <CheckboxGroup
          legend="Resolves"
          name={fields.resolvesIssueIds.name}
          options={openIssues.map((i) => ({ value: i.id, label: i.number ? `#${i.number} ${i.title}` : i.title }))}
          error={fields.resolvesIssueIds.errors?.join(" ")}
        />
      ) : null}
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} />
    </FormCard>
  );
}

/** The "Log service" form's state: on a valid submit, the entry goes into the store (and the sync queue). */
function useLogService(vehicleId: string, photoIds: string[], logged: () => void) {
  const { logService } = useServiceMutations();
  return useZodForm(
    "log-service",
    serviceEntryFormSchema,
    async (value, submission) => {
      try {
        await logService({
          ...value,
          id: crypto.randomUUID(),
          vehicleId,
          photoIds,
          createdAt: Date.now(),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the service on this device"] });
      }
      saved("Service logged");
      logged();
      return submission.reply({ resetForm: true });
    },
    { date: new Date().toISOString().slice(0, 10) },
  );
}

/** "Add schedule" (owners and admins): due every N miles, engine hours or days, whichever comes first. */
export function AddScheduleForm({ vehicleId, done }: { vehicleId: string; done: () => void }) {
  const { addSchedule } = useServiceMutations();
  const { form, fields, pending } = useZodForm("add-schedule", serviceScheduleFormSchema, async (value, submission) => {
    try {
      await addSchedule({ ...value, id: crypto.randomUUID(), vehicleId });
    } catch {
      return submission.reply({ formErrors: ["Could not save the schedule on this device"] });
    }
    saved("Schedule added");
    done();
    return submission.reply({ resetForm: true });
  });
  return (
    <FormCard title="Add schedule" form={form} pending={pending} action="Add schedule">
      <ScheduleFields fields={fields} />
    </FormCard>
  );
}

/**
 * "Edit" on a schedule's row (owners and admins): the add form's fields, filled in. An emptied
 * interval is removed; the last-done day and odometer are sent only when changed, so saving a new
 * interval keeps the moment and figures the schedule counts from (shared scheduleAfterPatch).
 */
export function EditScheduleForm({ schedule, close }: { schedule: ServiceSchedule; close: () => void }) {
  const { editSchedule } = useServiceMutations();
  const day = schedule.lastDoneAt.slice(0, 10);
  const { form, fields, pending } = useZodForm(
    `edit-schedule-${schedule.id}`,
    serviceScheduleFormSchema,
    async (value, submission) => {
      const odometer = value.lastDoneOdometerMiles ?? null;
      try {
        await editSchedule({
          id: schedule.id,
          // the table's fields as the form has them: an emptied interval is null, removed
          ...serviceScheduleTable.given(value),
          ...(value.lastDoneAt && value.lastDoneAt !== day ? { lastDoneAt: value.lastDoneAt } : {}),
          ...(odometer !== null && odometer !== schedule.lastDoneOdometerMiles
            ? { lastDoneOdometerMiles: odometer }
            : {}),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the schedule on this device"] });
      }
      saved("Schedule saved");
      close();
    },
    {
      // an interval it has not: an empty input (undefined, not null)
      ...Object.fromEntries(
        Object.entries(serviceScheduleTable.valuesOf(schedule)).map(([k, v]) => [k, v ?? undefined]),
      ),
      lastDoneAt: day,
      lastDoneOdometerMiles: schedule.lastDoneOdometerMiles ?? undefined,
    },
  );
  return (
    <FormCard title="Edit schedule" form={form} pending={pending} action="Save schedule" cancel={close}>
      <ScheduleFields fields={fields} />
    </FormCard>
  );
}

type ScheduleFormFields = ReturnType<typeof useZodForm<typeof serviceScheduleFormSchema>>["fields"];

/** A schedule's fields, as "Add schedule" and "Edit" show them: the table's, then the last-done basis. */
function ScheduleFields({ fields }: { fields: ScheduleFormFields }) {
  return (
    <>
      <TableFormFields fields={serviceScheduleTable.formFields} conform={fields} />
      <Field field={fields.lastDoneAt} label="Last done on" type="date" />
      <Field
        field={fields.lastDoneOdometerMiles}
        label="Last done at (mi)"
        type="number"
        inputMode="decimal"
        step="any"
      />
    </>
  );
}
