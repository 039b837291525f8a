import { getFormProps } from "@conform-to/react";
import { useParams } from "@remix-run/react";
import { useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { updateVehicleArgs } from "../../shared/mutators";
import type { Vehicle } from "../../shared/vehicle";
import { decodeVin } from "../../shared/vin";
import { Field, SubmitButton } from "../components/form";
import { useSession } from "../session/session";
import { useZodForm } from "../session/use-zod-form";
import { useUpdateVehicle, useVehicle } from "../store";
import { BeaconHealth } from "../vehicles/beacon-health";

// The form sends strings; the shared mutation schema takes over after these conversions.
const formSchema = z.object({
  name: z.string({ required_error: "Required" }),
  vin: z.string().optional(),
  year: z.number({ invalid_type_error: "Enter a year" }).optional(),
  make: z.string().optional(),
  model: z.string().optional(),
});

/** Vehicle Settings: identification fields, saved as a synced mutation (works offline). */
export default function VehicleSettings() {
  const { vehicleId } = useParams();
  const vehicle = useVehicle(vehicleId);
  return vehicle ? (
    <>
      <SettingsForm key={vehicle.id} vehicle={vehicle} />
      <BeaconHealth vehicleId={vehicle.id} />
    </>
  ) : null;
}

function SettingsForm({ vehicle }: { vehicle: Vehicle }) {
  const update = useUpdateVehicle();
  const [vin, setVin] = useState(vehicle.vin ?? "");
  // Feature flag (docs/flags.md): on unless switched off globally or for this workspace.
  const vinDecode = useSession().flags.vinDecode !== false;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { form, fields, pending } = useZodForm(
    `vehicle-${vehicle.id}`,
    formSchema,
    async (value) => {
      const parsed = updateVehicleArgs.safeParse({
        id: vehicle.id,
        name: value.name,
        vin: value.vin ?? null,
        year: value.year ?? null,
        make: value.make ?? null,
        model: value.model ?? null,
      });
      if (!parsed.success) {
        setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
        return;
      }
      setErrors({});
      await update(parsed.data);
      toast("Vehicle updated");
    },
    { name: vehicle.name, vin: vehicle.vin ?? "", year: vehicle.year ?? undefined, make: vehicle.make ?? "", model: vehicle.model ?? "" },
  );

  const decode = () => {
    const decoded = decodeVin(vin);
    if (!decoded) {
      setErrors((e) => ({ ...e, vin: "A VIN is 17 letters and digits (no I, O or Q)" }));
      return;
    }
    const el = document.getElementById(form.id) as HTMLFormElement | null;
    const setIfEmpty = (name: string, value: string | number | null) => {
      const input = el?.elements.namedItem(name);
      if (input instanceof HTMLInputElement && !input.value && value !== null) input.value = String(value);
    };
    setIfEmpty("year", decoded.year);
    setIfEmpty("make", decoded.make);
    setErrors((e) => ({ ...e, vin: decoded.checkDigitValid ? "" : "The check digit does not match: please double-check this VIN" }));
  };

  return (
    <section className="card section">
      <h2>Vehicle Settings</h2>
      <form {...getFormProps(form)}>
        <fieldset className="group">
          <legend>Vehicle Identification</legend>
          <Field field={fields.name} label="Vehicle Name" error={errors.name} />
          <div className="vin-row">
            <Field field={fields.vin} label="VIN" error={errors.vin} onInput={(e) => setVin(e.currentTarget.value)} />
            {vinDecode && vin.trim().toUpperCase() !== (vehicle.vin ?? "") ? (
              <button type="button" className="button" onClick={decode}>
                Decode
              </button>
            ) : null}
          </div>
          <Field field={fields.year} label="Year" type="number" error={errors.year} />
          <Field field={fields.make} label="Make" error={errors.make} />
          <Field field={fields.model} label="Model" error={errors.model} />
        </fieldset>
        <SubmitButton pending={pending}>Update</SubmitButton>
      </form>
    </section>
  );
}
