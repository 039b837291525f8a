import { getFormProps, type FormMetadata } from "@conform-to/react";
import { useMemo, useState, type ReactNode } from "react";
import { toast } from "sonner";
import { z } from "zod";
import {
  FORM_UNITS,
  formOdometerOf,
  formVolumeOf,
  fuelEntryFormSchemaIn,
  litresFromForm,
  milesFromForm,
} from "../../shared/costs/fuel";
import type { WorkspaceUnits } from "../../shared/units/units";
import { type FuelTableValues, fuelTable } from "../../shared/costs/fuel-fields";
import { TableFormFields } from "../components/table-inputs";
import { useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { CheckboxGroup, Field, FormError, SelectFormField, SubmitButton } from "../components/form";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useVehicles } from "../store";
import { useFuelMutations, type FuelRow } from "../store/fuel";
import { localInput } from "../lib/local-input";

/**
 * "Log fuel" and "Edit" on a fill-up (issue 42): saved as synced mutations (shared/costs/fuel-mutators.ts),
 * so they work with no network and show at once; the server applies them with the REST routes'
 * rules when the device is back online. The volume and odometer are typed in the workspace's units
 * (gallons and miles, or litres and km) and the cost in dollars (kept as litres, miles and cents);
 * an odometer left empty is the vehicle's GPS odometer at that time.
 */

const saved = (what: string) =>
  toast(navigator.onLine ? what : `${what} on this device; it syncs when you are back online`);

const cents = (dollars: number | null | undefined) =>
  dollars === undefined || dollars === null ? null : Math.round(dollars * 100);

type FuelFormSchema = ReturnType<typeof fuelEntryFormSchemaIn>;

/** The form also names the vehicle: chosen on the Fuel page, fixed (hidden) on a vehicle's tab. */
const logFuelFormSchemaIn = (units: WorkspaceUnits) =>
  fuelEntryFormSchemaIn(units).extend({
    vehicleId: z.string({ required_error: "Choose a vehicle" }).min(1, "Choose a vehicle"),
  });
type FormFields = Pick<ReturnType<typeof useZodForm<FuelFormSchema>>["fields"], keyof z.input<FuelFormSchema>>;

function FuelFields({ fields, fullTank, units }: { fields: FormFields; fullTank: boolean; units: WorkspaceUnits }) {
  const u = FORM_UNITS[units];
  return (
    <>
      <Field field={fields.at} label="Date and time" type="datetime-local" />
      <Field field={fields.volume} label={`Volume (${u.volume})`} type="number" inputMode="decimal" step="any" />
      <Field field={fields.cost} label="Cost ($)" type="number" inputMode="decimal" step="0.01" />
      <CheckboxGroup
        legend="Fill"
        name={fields.fullTank.name}
        options={[{ value: "on", label: "Full tank" }]}
        defaultValues={fullTank ? ["on"] : []}
        error={fields.fullTank.errors?.join(" ")}
      />
      <Field
        field={fields.odometer}
        label={`Odometer (${u.distance})`}
        type="number"
        inputMode="decimal"
        step="any"
        hint="Leave empty to use the vehicle's GPS odometer at that time"
      />
      <TableFormFields fields={fuelTable.formFields} conform={fields} />
    </>
  );
}

function FormCard<F extends Record<string, unknown>>({
  title,
  form,
  pending,
  action,
  cancel,
  children,
}: {
  title: string;
  form: FormMetadata<F, string[]>;
  pending: boolean;
  action: string;
  cancel?: () => void;
  children: ReactNode;
}) {
  return (
    <form className="card maintenance-form" {...getFormProps(form)} aria-label={title}>
      <h3>{title}</h3>
      {children}
      <FormError form={form} />
      <div className="form-actions">
        <SubmitButton pending={pending}>{action}</SubmitButton>
        {cancel ? (
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** What both forms save as typed: an emptied odometer or vendor is cleared, not kept. */
function savedFields(units: WorkspaceUnits, value: z.output<FuelFormSchema>, photoIds: string[]) {
  return {
    costCents: cents(value.cost),
    fullTank: value.fullTank,
    odometerMiles:
      value.odometer === null || value.odometer === undefined ? null : milesFromForm(units, value.odometer),
    // the table's fields as the form's checks give them (an emptied one as null: cleared)
    ...fuelTable.valuesOf(value as FuelTableValues),
    photoIds,
  };
}

/** A fill-up to log as a refuel the beacon showed it ("Log it" on a check row): its vehicle, time and litres. */
export interface FuelPrefill {
  /** the refuel's id: a new prefill starts the form afresh */
  id: string;
  vehicleId: string;
  at: number;
  litres: number | null;
}

interface LogFuelFormProps {
  vehicleId?: string;
  prefill?: FuelPrefill;
  /** the vehicle chosen first in the list (the one this device drives, useMyVehicle), still changeable */
  suggestedVehicleId?: string;
  /** after a fill-up is saved (the caller drops its prefill) */
  onLogged?: () => void;
}

/**
 * "Log fuel" for one vehicle (its Fuel tab) or, without `vehicleId`, for a vehicle chosen in the form
 * (the Fuel page); `prefill` fills it in from a refuel seen but not logged (callers key the form by it).
 */
export function LogFuelForm({ vehicleId, prefill, onLogged, suggestedVehicleId }: LogFuelFormProps) {
  const { logFuel } = useFuelMutations();
  const vehicles = useVehicles();
  const units = useWorkspaceUnits();
  const schema = useMemo(() => logFuelFormSchemaIn(units), [units]);
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    prefill ? `log-fuel-${prefill.id}` : "log-fuel",
    schema,
    async (value, submission) => {
      try {
        await logFuel({
          id: crypto.randomUUID(),
          vehicleId: value.vehicleId,
          at: new Date(value.at).toISOString(),
          volumeLitres: litresFromForm(units, value.volume),
          ...savedFields(units, value, photoIds),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the fill-up on this device"] });
      }
      saved("Fuel logged");
      setPhotoIds([]);
      onLogged?.();
      return submission.reply({ resetForm: true });
    },
    {
      at: localInput(prefill?.at ?? Date.now()),
      fullTank: "on",
      vehicleId: prefill?.vehicleId ?? vehicleId ?? suggestedVehicleId ?? "",
      ...(prefill?.litres ? { volume: formVolumeOf(units, prefill.litres) } : {}),
    },
  );
  return (
    <FormCard title="Log fuel" form={form} pending={pending} action="Log fuel">
      {vehicleId ? (
        <input type="hidden" name={fields.vehicleId.name} value={vehicleId} />
      ) : (
        <SelectFormField
          field={fields.vehicleId}
          label="Vehicle"
          options={[{ value: "", label: "Choose a vehicle" }, ...vehicles.map((v) => ({ value: v.id, label: v.name }))]}
        />
      )}
      <FuelFields fields={fields} fullTank units={units} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </FormCard>
  );
}

/** "Edit" on a fill-up (owners and admins): the log form's fields, filled in; an emptied odometer or vendor is cleared. */
export function EditFuelForm({ entry, close }: { entry: FuelRow; close: () => void }) {
  const { editFuel } = useFuelMutations();
  const units = useWorkspaceUnits();
  const schema = useMemo(() => fuelEntryFormSchemaIn(units), [units]);
  const [photoIds, setPhotoIds] = useState<string[]>(entry.photoIds);
  const { form, fields, pending } = useZodForm(
    `edit-fuel-${entry.id}`,
    schema,
    async (value, submission) => {
      try {
        await editFuel({
          id: entry.id,
          // The form shows minutes: an untouched time keeps the stored one.
          ...(value.at === localInput(entry.at) ? {} : { at: new Date(value.at).toISOString() }),
          // An unchanged volume keeps the litres as stored (no rounding through the form).
          volumeLitres:
            value.volume === formVolumeOf(units, entry.volumeLitres)
              ? entry.volumeLitres
              : litresFromForm(units, value.volume),
          ...savedFields(units, value, photoIds),
          // Likewise an unchanged odometer keeps its miles (a km figure is rounded to the metre).
          ...(entry.odometerMiles !== null && value.odometer === formOdometerOf(units, entry.odometerMiles)
            ? { odometerMiles: entry.odometerMiles }
            : {}),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the fill-up on this device"] });
      }
      saved("Fill-up saved");
      close();
    },
    {
      at: localInput(entry.at),
      volume: formVolumeOf(units, entry.volumeLitres),
      cost: entry.costCents === null ? undefined : entry.costCents / 100,
      fullTank: entry.fullTank ? "on" : undefined,
      odometer: entry.odometerMiles === null ? undefined : formOdometerOf(units, entry.odometerMiles),
      ...fuelTable.formValuesOf(entry),
    },
  );
  return (
    <FormCard title="Edit fill-up" form={form} pending={pending} action="Save fill-up" cancel={close}>
      <FuelFields fields={fields} fullTank={entry.fullTank} units={units} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </FormCard>
  );
}
