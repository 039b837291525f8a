import type { FormEvent, InputHTMLAttributes, ReactNode } from "react";
import { toast } from "sonner";
import type { ServiceSchedule } from "../../shared/service";
import { ErrorLine, InputField, SubmitButton } from "../components/form";
import { useApiAction } from "../components/use-api-action";
import { http } from "../lib/http";

type Fields = Record<string, string[]>;

/** A form-kit input named `name`, with its field error from the API's refusal under it. */
function Input({
  name,
  label,
  errors,
  ...rest
}: { name: string; label: string; errors: Fields } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name">) {
  return <InputField id={`svc-${name}`} name={name} label={label} error={errors[name]?.join(" ") || null} {...rest} />;
}

const num = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? undefined : Number(v));
const str = (v: FormDataEntryValue | null) => (v === null || String(v).trim() === "" ? undefined : String(v).trim());

/** POSTs a form's value; on success the form is cleared and closed with a toast, on refusal its errors stay. */
function usePost(path: string, done: () => void, success: string) {
  const post = useApiAction(async (json: unknown, form: HTMLFormElement) => {
    await http.post(path, { json });
    form.reset();
    toast(success);
    done();
  });
  const submit = (json: unknown, form: HTMLFormElement) => post.run(json, form);
  return { errors: post.refusal?.fields ?? {}, message: post.refusal?.message ?? null, pending: post.pending, submit };
}

function FormCard({
  title,
  onSubmit,
  pending,
  message,
  children,
  action,
}: {
  title: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  pending: boolean;
  message: string | null;
  children: ReactNode;
  action: string;
}) {
  return (
    <form className="card maintenance-form" onSubmit={onSubmit} aria-label={title}>
      <h3>{title}</h3>
      {children}
      <ErrorLine message={message} />
      <SubmitButton pending={pending}>{action}</SubmitButton>
    </form>
  );
}

/** "Log service": what was done, when, at which odometer, for how much; it restarts the schedules ticked. */
export function LogServiceForm({
  vehicleId,
  schedules,
  done,
}: {
  vehicleId: string;
  schedules: ServiceSchedule[];
  done: () => void;
}) {
  const { errors, message, pending, submit } = usePost("service-entries", done, "Service logged");
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void submit(serviceEntryOf(vehicleId, new FormData(e.currentTarget)), e.currentTarget);
  };
  return (
    <FormCard title="Log service" onSubmit={onSubmit} pending={pending} message={message} action="Log service">
      <Input
        name="date"
        label="Date"
        type="date"
        required
        defaultValue={new Date().toISOString().slice(0, 10)}
        errors={errors}
      />
      <Input name="description" label="What was done" errors={errors} placeholder="e.g. Oil and filter" />
      <Input
        name="odometerMiles"
        label="Odometer (mi)"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        errors={errors}
      />
      <Input
        name="cost"
        label="Cost ($)"
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
        errors={{ cost: errors.costCents ?? [] }}
      />
      <Input name="vendor" label="Vendor" errors={errors} />
      <Input name="notes" label="Notes" errors={errors} />
      {schedules.length ? (
        <fieldset className="field">
          <legend>Completes</legend>
          {schedules.map((s) => (
            <label key={s.id} className="check-row">
              <input type="checkbox" name="scheduleIds" value={s.id} defaultChecked={s.status !== "ok"} /> {s.name}
            </label>
          ))}
          <ErrorLine message={errors.scheduleIds?.join(" ") ?? null} />
        </fieldset>
      ) : null}
    </FormCard>
  );
}

/** The service entry a "Log service" form says (the API checks it). */
function serviceEntryOf(vehicleId: string, f: FormData) {
  const cost = num(f.get("cost"));
  return {
    vehicleId,
    date: str(f.get("date")),
    odometerMiles: num(f.get("odometerMiles")),
    description: str(f.get("description")),
    costCents: cost === undefined ? undefined : Math.round(cost * 100),
    vendor: str(f.get("vendor")),
    notes: str(f.get("notes")),
    scheduleIds: f.getAll("scheduleIds").map(String),
  };
}

/** "Add schedule" (owners and admins): due every N miles, engine hours or days, whichever comes first. */
export function AddScheduleForm({ vehicleId, done }: { vehicleId: string; done: () => void }) {
  const { errors, message, pending, submit } = usePost("service-schedules", done, "Schedule added");
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    void submit(
      {
        vehicleId,
        name: str(f.get("name")) ?? "",
        everyMiles: num(f.get("everyMiles")),
        everyEngineHours: num(f.get("everyEngineHours")),
        everyDays: num(f.get("everyDays")),
        lastDoneAt: str(f.get("lastDoneAt")),
        lastDoneOdometerMiles: num(f.get("lastDoneOdometerMiles")),
      },
      e.currentTarget,
    );
  };
  return (
    <FormCard title="Add schedule" onSubmit={onSubmit} pending={pending} message={message} action="Add schedule">
      <Input name="name" label="Name" required errors={errors} placeholder="e.g. Oil change" />
      <Input
        name="everyMiles"
        label="Every (mi)"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        errors={errors}
      />
      <Input
        name="everyEngineHours"
        label="Every (engine hours)"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        errors={errors}
      />
      <Input name="everyDays" label="Every (days)" type="number" inputMode="numeric" min={1} step={1} errors={errors} />
      <Input name="lastDoneAt" label="Last done on" type="date" errors={errors} />
      <Input
        name="lastDoneOdometerMiles"
        label="Last done at (mi)"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        errors={errors}
      />
    </FormCard>
  );
}
