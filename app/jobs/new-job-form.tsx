import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { ErrorLine, InputField, SelectField, Submit, TextAreaField } from "../components/form";
import { useVehicles } from "../store";
import { useJobMutations } from "../store/jobs";
import { usePlaces } from "../store/places-alerts";
import { jobFormArgs } from "./job-form-values";
import { jobTable } from "../../shared/jobs/job-fields";

/**
 * "New job" on the dispatch page: a stop at a saved place or at a point (typed, or picked on the
 * map with "Pick on map"), its window, expected duration, notes and customer, on the page's day,
 * for a vehicle or left unassigned. Saved through the createJob mutator: shown at once, offline too.
 */
export function NewJobForm({
  date,
  picked,
  picking,
  onPick,
}: {
  date: string;
  /** The point last picked on the map, filled into latitude and longitude. */
  picked: { latitude: number; longitude: number } | null;
  picking: boolean;
  onPick: (on: boolean) => void;
}) {
  const { createJob } = useJobMutations();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const result = jobFormArgs(new FormData(form), crypto.randomUUID(), date);
    if (!result.ok) return setErrors(result.errors);
    setErrors({});
    try {
      await createJob(result.args);
      form.reset();
      onPick(false);
      toast(navigator.onLine ? "Job added" : "Job added on this device; it syncs when you are back online");
    } catch {
      setFailed("Could not save the job on this device");
    }
  };
  return (
    <form className="card job-form" aria-label="New job" noValidate onSubmit={(e) => void submit(e)}>
      <h2>New job</h2>
      <InputField id="job-title" name="title" label="Title" error={errors.title} placeholder="e.g. Deliver 4 boxes" />
      <JobPlaceFields errors={errors} picked={picked} picking={picking} onPick={onPick} />
      <JobDetailFields errors={errors} />
      <ErrorLine message={failed} />
      <Submit>Add job</Submit>
    </form>
  );
}

type Errors = Record<string, string>;
type Point = { latitude: number; longitude: number } | null;

/** Where: a saved place, or a point typed or picked on the map (a new pick refills the two inputs). */
function JobPlaceFields({
  errors,
  picked,
  picking,
  onPick,
}: {
  errors: Errors;
  picked: Point;
  picking: boolean;
  onPick: (on: boolean) => void;
}) {
  const places = usePlaces();
  const pointKey = picked ? `${picked.latitude},${picked.longitude}` : "none";
  return (
    <>
      <SelectField
        id="job-place"
        name="placeId"
        label="Place"
        hint="A saved place, or leave it on “A point” and give the point"
        options={[{ value: "", label: "A point" }, ...places.map((p) => ({ value: p.id, label: p.name }))]}
      />
      <div className="field-row" key={pointKey}>
        <InputField
          id="job-latitude"
          name="latitude"
          label="Latitude"
          inputMode="decimal"
          defaultValue={picked?.latitude.toFixed(6)}
          error={errors.latitude}
        />
        <InputField
          id="job-longitude"
          name="longitude"
          label="Longitude"
          inputMode="decimal"
          defaultValue={picked?.longitude.toFixed(6)}
          error={errors.longitude}
        />
      </div>
      <button type="button" className="button" aria-pressed={picking} onClick={() => onPick(!picking)}>
        {picking ? "Click the map…" : "Pick on map"}
      </button>
    </>
  );
}

/** When, by which vehicle, then the table's fields (how long, for whom, notes: shared/jobs/job-fields.ts). */
function JobDetailFields({ errors }: { errors: Errors }) {
  const vehicles = useVehicles();
  return (
    <>
      <InputField id="job-address" name="address" label="Address" error={errors.address} />
      <div className="field-row">
        <InputField
          id="job-window-start"
          name="windowStart"
          type="time"
          label="Window from"
          error={errors.windowStart}
        />
        <InputField id="job-window-end" name="windowEnd" type="time" label="Window to" error={errors.windowEnd} />
      </div>
      <SelectField
        id="job-vehicle"
        name="vehicleId"
        label="Vehicle"
        options={[{ value: "", label: "Unassigned" }, ...vehicles.map((v) => ({ value: v.id, label: v.name }))]}
      />
      {jobTable.formFields.map(({ name, type, ...input }) =>
        type === "textarea" ? (
          <TextAreaField key={name} name={name} rows={2} error={errors[name]} {...input} />
        ) : (
          <InputField
            key={name}
            name={name}
            type={type ?? "text"}
            inputMode={type === "number" ? "numeric" : undefined}
            error={errors[name]}
            {...input}
          />
        ),
      )}
    </>
  );
}
