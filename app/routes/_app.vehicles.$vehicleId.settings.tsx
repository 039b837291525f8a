import { getFormProps } from "@conform-to/react";
import { useParams } from "@remix-run/react";
import { useState } from "react";
import { toast } from "sonner";
import { vehicleSettingsSchema } from "../../shared/sync/mutators";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { vehicleTableFormDefault, type VehicleTableValues, vehicleTable } from "../../shared/fleet/vehicle-fields";
import { decodeVin } from "../../shared/fleet/vin";
import { FORM_UNITS, formVolumeOf, litresFromForm } from "../../shared/costs/fuel";
import type { WorkspaceUnits } from "../../shared/units/units";
import { useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { Field, SubmitButton } from "../components/form";
import { TableFormFields } from "../components/table-inputs";
import { useCan, useSession } from "../session/session";
import { useZodForm } from "../components/use-zod-form";
import { useUpdateVehicle, useVehicle } from "../store";
import { BeaconHealth } from "../vehicles/beacon-health";
import { DriverAssignment } from "../vehicles/driver-assignment";
import { PlanSettings } from "../vehicles/plan-settings";

/** The VIN is drawn with its Decode button, under the table's label. */
const vinLabel = vehicleTable.formFields.find((f) => f.name === "vin")?.label ?? "VIN";

/** Vehicle Settings: identification fields, saved as a synced mutation (works offline). */
export default function VehicleSettings() {
  const { vehicleId } = useParams();
  const vehicle = useVehicle(vehicleId);
  // An untouched form follows the store: after a reload the local snapshot can be older than what
  // the next pull brings, and a form that kept its first values would show (and save back) the old
  // ones. Once the operator types, the form is theirs until it is left.
  const [editing, setEditing] = useState<{ id: string; shown: string } | null>(null);
  if (!vehicle) return null;
  const shown = JSON.stringify([...vehicleTable.keys.map((k) => vehicle[k]), vehicle.fuelTankLitres]);
  const formKey = editing?.id === vehicle.id ? editing.shown : shown;
  return (
    <>
      <SettingsForm
        key={`${vehicle.id}:${formKey}`}
        vehicle={vehicle}
        onEdit={() => setEditing((e) => (e?.id === vehicle.id ? e : { id: vehicle.id, shown: formKey }))}
      />
      <DriverAssignment vehicle={vehicle} />
      <PlanSettings vehicle={vehicle} />
      <BeaconHealth vehicleId={vehicle.id} />
    </>
  );
}

/** The settings form for `vehicle`, saved as a synced mutation; the tank in the workspace's units. */
function useVehicleSettingsForm(vehicle: Vehicle, units: WorkspaceUnits) {
  const update = useUpdateVehicle();
  const shownTank = vehicle.fuelTankLitres === null ? undefined : formVolumeOf(units, vehicle.fuelTankLitres);
  // An untouched tank keeps its litres exactly (not rounded through gallons).
  const tankLitres = (typed: number | undefined) =>
    typed === undefined ? null : typed === shownTank ? vehicle.fuelTankLitres : litresFromForm(units, typed);
  return useZodForm(
    `vehicle-${vehicle.id}`,
    vehicleSettingsSchema,
    async (value) => {
      const { fuelTank, ...fields } = value;
      // every table field, an empty one as none (the mutation takes each, null clearing it)
      const given = Object.fromEntries(vehicleTable.keys.map((k) => [k, fields[k] ?? null])) as VehicleTableValues;
      await update({ id: vehicle.id, ...given, fuelTankLitres: tankLitres(fuelTank) });
      toast("Vehicle updated");
    },
    {
      ...Object.fromEntries(vehicleTable.keys.map((k) => [k, vehicle[k] ?? vehicleTableFormDefault(k)])),
      fuelTank: shownTank,
    },
  );
}

/**
 * The Decode button's work: fills in the year and make a VIN says, where the operator has not
 * typed them, and notes a check digit that does not add up.
 */
function useVinDecoder({ form, fields }: ReturnType<typeof useVehicleSettingsForm>) {
  // Not an error: a decoded VIN whose check digit does not add up may still be what is on the car.
  const [checkDigitNote, setCheckDigitNote] = useState(false);
  const vin = typeof fields.vin.value === "string" ? fields.vin.value : "";
  const decode = () => {
    const decoded = decodeVin(vin);
    if (!decoded) {
      // The schema's VIN rule says what is wrong, on the field.
      form.validate({ name: fields.vin.name });
      return;
    }
    // Fill in only what the operator has not typed.
    if (!fields.year.value && decoded.year !== null)
      form.update({ name: fields.year.name, value: String(decoded.year) });
    if (!fields.make.value && decoded.make !== null) form.update({ name: fields.make.name, value: decoded.make });
    setCheckDigitNote(!decoded.checkDigitValid);
  };
  return { vin, decode, checkDigitNote, clearCheckDigitNote: () => setCheckDigitNote(false) };
}

function SettingsForm({ vehicle, onEdit }: { vehicle: Vehicle; onEdit: () => void }) {
  // A viewer sees the settings but cannot change them (the server refuses it too: shared/account/roles.ts).
  const editable = useCan("fleet.edit");
  const units = useWorkspaceUnits();
  const settings = useVehicleSettingsForm(vehicle, units);
  const { form, fields, pending } = settings;

  return (
    <section className="card section">
      <h2>Vehicle Settings</h2>
      {editable ? null : (
        <p className="muted role-note" role="note">
          You have view-only access to this workspace: ask an owner or admin to change these settings.
        </p>
      )}
      <form {...getFormProps(form)} onInput={onEdit}>
        <fieldset className="group" disabled={!editable}>
          <legend>Vehicle Identification</legend>
          <TableFormFields
            fields={vehicleTable.formFields}
            conform={fields}
            drawn={{ vin: <VinField vehicle={vehicle} settings={settings} label={vinLabel} /> }}
          />
          <Field
            field={fields.fuelTank}
            label={`Fuel tank (${FORM_UNITS[units].volume})`}
            type="number"
            inputMode="decimal"
            step="any"
            hint="Fill-ups above it are flagged to check"
          />
        </fieldset>
        <SubmitButton pending={pending} disabled={!editable}>
          Update
        </SubmitButton>
      </form>
    </section>
  );
}

/** The VIN's input, with the Decode button beside it and the check digit's note under it. */
function VinField({
  vehicle,
  settings,
  label,
}: {
  vehicle: Vehicle;
  settings: ReturnType<typeof useVehicleSettingsForm>;
  label: string;
}) {
  // Feature flag (docs/flags.md): on unless switched off globally or for this workspace.
  const vinDecode = useSession().flags.vinDecode !== false;
  const { vin, decode, checkDigitNote, clearCheckDigitNote } = useVinDecoder(settings);
  return (
    <>
      <div className="vin-row">
        <Field field={settings.fields.vin} label={label} onInput={clearCheckDigitNote} />
        {vinDecode && vin.trim().toUpperCase() !== (vehicle.vin ?? "") ? (
          <button type="button" className="button" onClick={decode}>
            Decode
          </button>
        ) : null}
      </div>
      {checkDigitNote ? (
        <p className="field-note" role="status">
          The check digit does not match: please double-check this VIN
        </p>
      ) : null}
    </>
  );
}
