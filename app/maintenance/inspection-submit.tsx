import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import type { InspectionForm, InspectionResult, SubmitInspectionArgs } from "../../shared/maintenance/inspections";
import { ErrorLine, InputField } from "../components/form";
import { PhotoPicker } from "../photos/photo-picker";
import { useInspectionMutations } from "../store/maintenance";

type Answers = Record<string, InspectionResult>;

/** One item: its label, big Pass / Fail targets, and for a failed one a note and a photo from the camera. */
function ItemRow({
  label,
  value,
  onChange,
}: {
  label: string;
  value: InspectionResult;
  onChange: (r: InspectionResult) => void;
}) {
  return (
    <li className={`inspection-item${value.pass === false ? " failed" : ""}`}>
      <span className="inspection-label">{label}</span>
      <div className="pass-fail" role="group" aria-label={label}>
        <button
          type="button"
          className={`button big${value.pass === true ? " pass" : ""}`}
          aria-pressed={value.pass === true}
          onClick={() => onChange({ ...value, pass: true })}
        >
          Pass
        </button>
        <button
          type="button"
          className={`button big${value.pass === false ? " fail" : ""}`}
          aria-pressed={value.pass === false}
          onClick={() => onChange({ ...value, pass: false })}
        >
          Fail
        </button>
      </div>
      {value.pass === false ? (
        <div className="inspection-failure">
          <input
            className="input"
            aria-label={`${label}: note`}
            placeholder="What is wrong?"
            value={value.note ?? ""}
            onChange={(e) => onChange({ ...value, note: e.target.value })}
          />
          <PhotoPicker
            ids={value.photoIds ?? []}
            onChange={(photoIds) => onChange({ ...value, photoIds })}
            label="Photo"
          />
        </div>
      ) : null}
    </li>
  );
}

/** Puts a submission into the store (and the sync queue); says so, or why it could not. */
function useSaveInspection(done: () => void, failed: (message: string) => void) {
  const { submit } = useInspectionMutations();
  return (args: SubmitInspectionArgs) =>
    submit(args).then(
      () => {
        toast(navigator.onLine ? "Inspection submitted" : "Inspection saved; it syncs when you are back online");
        done();
      },
      () => failed("Could not save the inspection on this device"),
    );
}

/**
 * The phone-first inspection (issue 32): one item per row, the odometer, a typed name as the
 * signature. Saved as a synced mutation (shared/maintenance/inspection-mutators.ts): kept on this device and
 * sent when there is a network, so it works next to the vehicle with none.
 */
export function InspectionSubmit({
  form,
  vehicleId,
  done,
}: {
  form: InspectionForm;
  vehicleId: string;
  done: () => void;
}) {
  const items = form.items.filter((i) => i.kind === "pass_fail");
  const [answers, setAnswers] = useState<Answers>(() => Object.fromEntries(items.map((i) => [i.id, { itemId: i.id }])));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveInspection(done, setError);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const answered = answersOf(items, answers, new FormData(e.currentTarget));
    if ("error" in answered) return setError(answered.error);
    save({ id: crypto.randomUUID(), formId: form.id, vehicleId, ...answered, submittedAt: new Date().toISOString() });
  };
  return (
    <form className="inspection-submit" onSubmit={submit} aria-label={form.name}>
      <h2>{form.name}</h2>
      <ul className="inspection-items">
        {items.map((i) => (
          <ItemRow
            key={i.id}
            label={i.label}
            value={answers[i.id]!}
            onChange={(r) => setAnswers((a) => ({ ...a, [i.id]: r }))}
          />
        ))}
      </ul>
      <InputField
        id="inspection-odometer"
        label="Odometer (mi)"
        name="odometerMiles"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
      />
      <InputField id="inspection-sign" label="Signature: type your name" name="signedName" autoComplete="name" />
      <ErrorLine message={error} />
      <button type="submit" className="button primary block big">
        Submit inspection
      </button>
    </form>
  );
}

/** The submission the form says, or what is missing: every item answered, and a signature. */
function answersOf(
  items: { id: string; label: string }[],
  answers: Answers,
  f: FormData,
): { error: string } | { results: InspectionResult[]; signedName: string; odometerMiles?: number } {
  const unanswered = items.filter((i) => typeof answers[i.id]?.pass !== "boolean");
  const signedName = String(f.get("signedName") ?? "").trim();
  if (unanswered.length) return { error: `Answer every item: ${unanswered.map((i) => i.label).join(", ")}` };
  if (!signedName) return { error: "Type your name to sign" };
  const odometer = String(f.get("odometerMiles") ?? "").trim();
  const results = items.map((i) => {
    const r = answers[i.id]!;
    return {
      itemId: i.id,
      pass: r.pass,
      ...(r.note?.trim() ? { note: r.note.trim() } : {}),
      ...(r.photoIds?.length ? { photoIds: r.photoIds } : {}),
    };
  });
  return { results, signedName, odometerMiles: odometer ? Number(odometer) : undefined };
}
