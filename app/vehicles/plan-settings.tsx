import { useEffect, useState, type FormEvent } from "react";
import { toast } from "sonner";
import { z } from "zod";
import type { Vehicle } from "../../shared/fleet/vehicle";
import { FormField, SelectField, SubmitButton } from "../components/form";
import { useApiAction } from "../components/use-api-action";
import { http } from "../lib/http";
import { useCan } from "../session/session";
import { usePlaces } from "../store/places-alerts";
import { useReachable } from "../sync/use-reachable";

/** What the day's planner reads of a vehicle, as `GET` and `PATCH /api/vehicles/{id}` answer it. */
const planFieldsSchema = z.object({
  capacity: z.number().nullable(),
  shiftStart: z.string().nullable(),
  shiftEnd: z.string().nullable(),
  homePlaceId: z.string().nullable(),
});
type PlanFields = z.infer<typeof planFieldsSchema>;

/** The vehicle's plan fields from the server (they are not synced, docs/decisions/0076); null until read. */
function usePlanFields(vehicleId: string, reachable: boolean) {
  const [fields, setFields] = useState<{ id: string; value: PlanFields } | null>(null);
  useEffect(() => {
    if (!reachable) return;
    let live = true;
    http
      .get(`vehicles/${encodeURIComponent(vehicleId)}`, { retry: 0 })
      .json()
      .then((body) => live && setFields({ id: vehicleId, value: planFieldsSchema.parse(body) }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [vehicleId, reachable]);
  return [
    fields?.id === vehicleId ? fields.value : null,
    (value: PlanFields) => setFields({ id: vehicleId, value }),
  ] as const;
}

/** The form's text as the PATCH gives it: an empty input clears the field (null). */
function planPatchOf(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "").trim() || null;
  const capacity = text("capacity");
  return {
    capacity: capacity === null ? null : Number(capacity),
    shiftStart: text("shiftStart"),
    shiftEnd: text("shiftEnd"),
    homePlaceId: text("homePlaceId"),
  };
}

/**
 * "Planning" on a vehicle's Settings tab (issue 54, docs/decisions/0088): how much it carries, its
 * shift and the place it sets off from and returns to, which "Plan the day" uses where the
 * request names none. Read and saved over REST, so it needs a connection and says so offline.
 */
export function PlanSettings({ vehicle }: { vehicle: Vehicle }) {
  const reachable = useReachable();
  const [fields, setFields] = usePlanFields(vehicle.id, reachable);
  return (
    <section className="card section plan-settings" aria-label="Planning">
      <h2>Planning</h2>
      <p className="muted">
        What &quot;Plan the day&quot; on Jobs uses for this vehicle; empty: the day&apos;s defaults.
      </p>
      {!reachable ? (
        <p role="status" className="muted">
          Planning settings need a connection.
        </p>
      ) : !fields ? (
        <p className="muted">Loading…</p>
      ) : (
        <PlanSettingsForm key={JSON.stringify(fields)} vehicleId={vehicle.id} fields={fields} onSaved={setFields} />
      )}
    </section>
  );
}

/** The form itself: each input starts at the saved value; Save sends them all (an empty one clears it). */
function PlanSettingsForm({
  vehicleId,
  fields,
  onSaved,
}: {
  vehicleId: string;
  fields: PlanFields;
  onSaved: (fields: PlanFields) => void;
}) {
  const editable = useCan("fleet.edit");
  const save = useApiAction(async (form: FormData) => {
    const answer = await http.patch(`vehicles/${encodeURIComponent(vehicleId)}`, { json: planPatchOf(form) }).json();
    onSaved(planFieldsSchema.parse(answer));
    toast("Planning settings saved");
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(new FormData(event.currentTarget));
  };
  const error = (name: string) => save.refusal?.fields[name]?.join(" ") ?? null;
  return (
    <form aria-label="Planning settings" onSubmit={onSubmit}>
      <PlanInputs fields={fields} error={error} disabled={!editable} />
      {save.refusal && !Object.keys(save.refusal.fields).length ? (
        <p role="alert" className="field-error">
          {save.refusal.message}
        </p>
      ) : null}
      <SubmitButton pending={save.pending} disabled={!editable}>
        Save planning
      </SubmitButton>
    </form>
  );
}

/** Capacity, shift and home place, each at its saved value (empty: the day's default). */
function PlanInputs({
  fields,
  error,
  disabled,
}: {
  fields: PlanFields;
  error: (name: string) => string | null;
  disabled: boolean;
}) {
  const places = usePlaces();
  const homes = [
    { value: "", label: "None: the day starts at the first stop" },
    ...places.map((p) => ({ value: p.id, label: p.name })),
  ];
  return (
    <fieldset className="group" disabled={disabled}>
      <FormField
        id="vehicle-capacity"
        label="Capacity"
        hint="The sizes of the jobs it can carry in a day"
        error={error("capacity")}
      >
        {(control) => (
          <input
            className="input"
            name="capacity"
            type="number"
            min={1}
            step="any"
            defaultValue={fields.capacity ?? ""}
            {...control}
          />
        )}
      </FormField>
      <div className="field-row">
        <ClockInput
          id="vehicle-shift-start"
          label="Shift starts"
          name="shiftStart"
          value={fields.shiftStart}
          error={error}
        />
        <ClockInput id="vehicle-shift-end" label="Shift ends" name="shiftEnd" value={fields.shiftEnd} error={error} />
      </div>
      <SelectField
        id="vehicle-home-place"
        name="homePlaceId"
        label="Home place"
        hint="Where its day starts and ends"
        defaultValue={fields.homePlaceId ?? ""}
        error={error("homePlaceId")}
        options={homes}
      />
    </fieldset>
  );
}

/** A shift's start or end, "HH:MM" on the workspace's clock. */
function ClockInput(props: {
  id: string;
  label: string;
  name: "shiftStart" | "shiftEnd";
  value: string | null;
  error: (name: string) => string | null;
}) {
  return (
    <FormField id={props.id} label={props.label} error={props.error(props.name)}>
      {(control) => (
        <input className="input" name={props.name} type="time" defaultValue={props.value ?? ""} {...control} />
      )}
    </FormField>
  );
}
