import { getFormProps, type FormMetadata } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { fuelEntryFormSchema, formLitres } from "../../shared/fuel";
import { litresToGallons } from "../../shared/units";
import { CheckboxGroup, Field, FormError, SelectFormField, SubmitButton } from "../components/form";
import { useZodForm } from "../components/use-zod-form";
import { PhotoPicker } from "../photos/photo-picker";
import { useVehicles } from "../store";
import { useFuelMutations, type FuelRow } from "../store/fuel";

/**
 * "Log fuel" and "Edit" on a fill-up (issue 42): saved as synced mutations (shared/fuel-mutators.ts),
 * so they work with no network and show at once; the server applies them with the REST routes'
 * rules when the device is back online. The volume is typed in US gallons and the cost in dollars
 * (kept as litres and cents); an odometer left empty is the vehicle's GPS odometer at that time.
 */

const saved = (what: string) =>
  toast(navigator.onLine ? what : `${what} on this device; it syncs when you are back online`);

/** A moment as a datetime-local input shows it (the device's time zone). */
export function localInput(ms: number) {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const gallonsOf = (litres: number) => Math.round(litresToGallons(litres) * 1000) / 1000;
const cents = (dollars: number | null | undefined) =>
  dollars === undefined || dollars === null ? null : Math.round(dollars * 100);

/** The form also names the vehicle: chosen on the Fuel page, fixed (hidden) on a vehicle's tab. */
const logFuelFormSchema = fuelEntryFormSchema.extend({
  vehicleId: z.string({ required_error: "Choose a vehicle" }).min(1, "Choose a vehicle"),
});
type FormFields = Pick<
  ReturnType<typeof useZodForm<typeof fuelEntryFormSchema>>["fields"],
  keyof z.input<typeof fuelEntryFormSchema>
>;

function FuelFields({ fields, fullTank }: { fields: FormFields; fullTank: boolean }) {
  return (
    <>
      <Field field={fields.at} label="Date and time" type="datetime-local" />
      <Field field={fields.gallons} label="Volume (gal)" type="number" inputMode="decimal" step="any" />
      <Field field={fields.cost} label="Cost ($)" type="number" inputMode="decimal" step="0.01" />
      <CheckboxGroup
        legend="Fill"
        name={fields.fullTank.name}
        options={[{ value: "on", label: "Full tank" }]}
        defaultValues={fullTank ? ["on"] : []}
        error={fields.fullTank.errors?.join(" ")}
      />
      <Field
        field={fields.odometerMiles}
        label="Odometer (mi)"
        type="number"
        inputMode="decimal"
        step="any"
        hint="Leave empty to use the vehicle's GPS odometer at that time"
      />
      <Field field={fields.vendor} label="Vendor" placeholder="e.g. Shell, Main St" />
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
function savedFields(value: z.output<typeof fuelEntryFormSchema>, photoIds: string[]) {
  return {
    costCents: cents(value.cost),
    fullTank: value.fullTank,
    odometerMiles: value.odometerMiles ?? null,
    vendor: value.vendor || null,
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

/**
 * "Log fuel" for one vehicle (its Fuel tab) or, without `vehicleId`, for a vehicle chosen in the form
 * (the Fuel page); `prefill` fills it in from a refuel seen but not logged (callers key the form by it).
 */
export function LogFuelForm({
  vehicleId,
  prefill,
  onLogged,
}: {
  vehicleId?: string;
  prefill?: FuelPrefill;
  /** after a fill-up is saved (the caller drops its prefill) */
  onLogged?: () => void;
}) {
  const { logFuel } = useFuelMutations();
  const vehicles = useVehicles();
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  const { form, fields, pending } = useZodForm(
    prefill ? `log-fuel-${prefill.id}` : "log-fuel",
    logFuelFormSchema,
    async (value, submission) => {
      try {
        await logFuel({
          id: crypto.randomUUID(),
          vehicleId: value.vehicleId,
          at: new Date(value.at).toISOString(),
          volumeLitres: formLitres(value.gallons),
          ...savedFields(value, photoIds),
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
      vehicleId: prefill?.vehicleId ?? vehicleId ?? "",
      ...(prefill?.litres ? { gallons: gallonsOf(prefill.litres) } : {}),
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
      <FuelFields fields={fields} fullTank />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </FormCard>
  );
}

/** "Edit" on a fill-up (owners and admins): the log form's fields, filled in; an emptied odometer or vendor is cleared. */
export function EditFuelForm({ entry, close }: { entry: FuelRow; close: () => void }) {
  const { editFuel } = useFuelMutations();
  const [photoIds, setPhotoIds] = useState<string[]>(entry.photoIds);
  const { form, fields, pending } = useZodForm(
    `edit-fuel-${entry.id}`,
    fuelEntryFormSchema,
    async (value, submission) => {
      try {
        await editFuel({
          id: entry.id,
          // The form shows minutes: an untouched time keeps the stored one.
          ...(value.at === localInput(entry.at) ? {} : { at: new Date(value.at).toISOString() }),
          // Unchanged gallons keep the litres as stored (no rounding through the form).
          volumeLitres:
            value.gallons === gallonsOf(entry.volumeLitres) ? entry.volumeLitres : formLitres(value.gallons),
          ...savedFields(value, photoIds),
        });
      } catch {
        return submission.reply({ formErrors: ["Could not save the fill-up on this device"] });
      }
      saved("Fill-up saved");
      close();
    },
    {
      at: localInput(entry.at),
      gallons: gallonsOf(entry.volumeLitres),
      cost: entry.costCents === null ? undefined : entry.costCents / 100,
      fullTank: entry.fullTank ? "on" : undefined,
      odometerMiles: entry.odometerMiles ?? undefined,
      vendor: entry.vendor ?? "",
    },
  );
  return (
    <FormCard title="Edit fill-up" form={form} pending={pending} action="Save fill-up" cancel={close}>
      <FuelFields fields={fields} fullTank={entry.fullTank} />
      <PhotoPicker ids={photoIds} onChange={setPhotoIds} label="Add receipt" />
    </FormCard>
  );
}
