import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import {
  inspectionItemKinds,
  type InspectionForm,
  type InspectionItemKind,
} from "../../shared/maintenance/inspections";
import { ErrorLine, InputField, SelectField, Submit } from "../components/form";
import { http } from "../lib/http";
import { useCan } from "../session/session";
import { useApi } from "./use-api";
import { useApiAction } from "../components/use-api-action";

/**
 * "Forms" on /inspections (issue 32): owners and admins list, edit and add inspection forms. An
 * item kept keeps its id (past inspections name it); a new one is sent without one; one removed
 * stops appearing on new submissions. Members and viewers see nothing here.
 */
type DraftItem = { key: string; id?: string; label: string; kind: InspectionItemKind };
type Draft = { formId: string | null; name: string; items: DraftItem[] };

const kindChoices = inspectionItemKinds.map((k) => ({
  value: k,
  label: k === "pass_fail" ? "Pass / fail" : k === "number" ? "Number" : "Text",
}));
const draftOf = (form: InspectionForm | null): Draft => ({
  formId: form?.id ?? null,
  name: form?.name ?? "",
  items: form
    ? form.items.map((i) => ({ key: i.id, ...i }))
    : [{ key: crypto.randomUUID(), label: "", kind: "pass_fail" }],
});

export function InspectionFormsSection() {
  const manage = useCan("maintenance.manage");
  const forms = useApi<{ forms: InspectionForm[] }>(manage ? "inspection-forms" : null);
  const [draft, setDraft] = useState<Draft | null>(null);
  if (!manage) return null;
  const done = () => {
    setDraft(null);
    forms.reload();
  };
  return (
    <section className="card" aria-label="Forms">
      <h2>Forms</h2>
      {draft ? (
        <FormEditor draft={draft} setDraft={setDraft} done={done} />
      ) : (
        <>
          <ul className="inspection-forms">
            {(forms.data?.forms ?? []).map((f) => (
              <li key={f.id}>
                <span>
                  {f.name} · {f.items.length} items
                </span>
                <button
                  type="button"
                  className="button"
                  onClick={() => setDraft(draftOf(f))}
                  aria-label={`Edit ${f.name}`}
                >
                  Edit
                </button>
              </li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => setDraft(draftOf(null))}>
            New form
          </button>
        </>
      )}
    </section>
  );
}

function FormEditor({
  draft,
  setDraft,
  done,
}: {
  draft: Draft;
  setDraft: (d: Draft | null) => void;
  done: () => void;
}) {
  const save = useApiAction(async () => {
    const json = { name: draft.name, items: draft.items.map(({ id, label, kind }) => ({ id, label, kind })) };
    await (draft.formId
      ? http.patch(`inspection-forms/${encodeURIComponent(draft.formId)}`, { json })
      : http.post("inspection-forms", { json }));
    toast(draft.formId ? "Form saved" : "Form added");
    done();
  });
  const error = (name: string) => save.refusal?.fields[name]?.join(" ") ?? null;
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <form className="maintenance-form" onSubmit={onSubmit} aria-label={draft.formId ? "Edit form" : "New form"}>
      <InputField
        id="form-name"
        label="Form name"
        value={draft.name}
        onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        error={error("name")}
        required
      />
      <ItemsEditor draft={draft} setDraft={setDraft} error={error} />
      <ErrorLine message={save.refusal?.message ?? null} />
      <div className="actions">
        <Submit pending={save.pending}>{draft.formId ? "Save form" : "Add form"}</Submit>
        <button type="button" className="button" onClick={() => setDraft(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A form's items: each one's label and kind, removable; and a button that adds one. */
function ItemsEditor({
  draft,
  setDraft,
  error,
}: {
  draft: Draft;
  setDraft: (d: Draft) => void;
  error: (name: string) => string | null;
}) {
  const setItem = (n: number, change: Partial<DraftItem>) =>
    setDraft({ ...draft, items: draft.items.map((item, i) => (i === n ? { ...item, ...change } : item)) });
  return (
    <>
      {draft.items.map((item, n) => (
        <fieldset key={item.key} className="field">
          <legend>Item {n + 1}</legend>
          <InputField
            id={`item-${n}-label`}
            label="Label"
            value={item.label}
            onChange={(e) => setItem(n, { label: e.target.value })}
            error={error(`items.${n}.label`)}
            required
          />
          <SelectField
            id={`item-${n}-kind`}
            label="Kind"
            options={kindChoices}
            value={item.kind}
            onChange={(e) => setItem(n, { kind: e.target.value as InspectionItemKind })}
            error={error(`items.${n}.kind`)}
          />
          <button
            type="button"
            className="button"
            onClick={() => setDraft({ ...draft, items: draft.items.filter((_, i) => i !== n) })}
            aria-label={`Remove ${item.label || `item ${n + 1}`}`}
          >
            Remove
          </button>
        </fieldset>
      ))}
      <ErrorLine message={error("items")} />
      <button
        type="button"
        className="button"
        onClick={() =>
          setDraft({ ...draft, items: [...draft.items, { key: crypto.randomUUID(), label: "", kind: "pass_fail" }] })
        }
      >
        Add item
      </button>
    </>
  );
}
