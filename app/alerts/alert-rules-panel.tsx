import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { alertRuleBodySchema, alertTypeLabels, alertTypes, type AlertRule, type AlertType } from "../../shared/alert-rules";
import { apiErrorOf, http } from "../lib/http";
import { useAlertRules, usePlaces } from "../store/places-alerts";

/**
 * The workspace's alert rules: listed, added, deleted (REST; they sync back to every browser).
 * A rule's fields depend on its type; the shared schema checks them here as the server does.
 */
export function AlertRulesPanel() {
  const rules = useAlertRules();
  const places = usePlaces();
  const placeName = (id: string | null | undefined) => (id ? (places.find((p) => p.id === id)?.name ?? "a deleted place") : "any place");
  const remove = (id: string) => http.delete(`alert-rules/${id}`).catch(() => toast.error("Could not delete the rule"));
  return (
    <section className="alert-rules" aria-labelledby="alert-rules-heading">
      <h2 id="alert-rules-heading">Alert rules</h2>
      <ul className="rule-list">
        {rules.map((rule) => (
          <li key={rule.id}>
            <span>{ruleSummary(rule, placeName)}</span>
            <button type="button" className="link-button" onClick={() => void remove(rule.id)} aria-label={`Delete rule: ${ruleSummary(rule, placeName)}`}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      <NewRuleForm places={places} />
    </section>
  );
}

export function ruleSummary(rule: AlertRule, placeName: (id: string | null | undefined) => string): string {
  const scope = rule.vehicleIds?.length ? ` (${rule.vehicleIds.length} vehicles)` : "";
  switch (rule.type) {
    case "place_enter":
    case "place_exit":
      return `${alertTypeLabels[rule.type]}: ${placeName(rule.placeId)}${scope}`;
    case "speeding":
      return `Speeding over ${rule.speedMph} mph for ${rule.minSeconds} s${scope}`;
    case "idling":
      return `Idling for ${rule.minutes} min${scope}`;
    case "beacon_silent":
      return `Beacon silent for ${rule.minutes} min${scope}`;
    default:
      return `${alertTypeLabels[rule.type]}${scope}`;
  }
}

function NewRuleForm({ places }: { places: { id: string; name: string }[] }) {
  const [type, setType] = useState<AlertType>("place_enter");
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formElement = e.currentTarget;
    const parsed = alertRuleBodySchema.safeParse(ruleFromForm(new FormData(formElement), type));
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the rule");
    try {
      await http.post("alert-rules", { json: parsed.data });
      setError(null);
      formElement.reset();
      toast.success("Rule added");
    } catch (err) {
      setError((await apiErrorOf(err))?.message ?? "Could not add the rule");
    }
  };
  return (
    <form className="rule-form" onSubmit={(e) => void submit(e)} aria-label="New alert rule">
      <label>
        When
        <select name="type" value={type} onChange={(e) => setType(e.target.value as AlertType)}>
          {alertTypes.map((t) => (
            <option key={t} value={t}>
              {alertTypeLabels[t]}
            </option>
          ))}
        </select>
      </label>
      <ConditionFields type={type} places={places} />
      <label>
        E-mail to <input name="emails" type="text" placeholder="ops@example.com" />
      </label>
      <label>
        Webhook <input name="webhookUrl" type="url" placeholder="https://" />
      </label>
      <p className="muted">Alerts arrive in this Inbox. E-mail and webhook delivery is not sent yet: the addresses are kept for when it is.</p>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button primary">
        Add rule
      </button>
    </form>
  );
}

/** What the form says, as the rule body the API takes (the schema checks it next). */
function ruleFromForm(form: FormData, type: AlertType) {
  const number = (name: string) => (form.get(name) === null || form.get(name) === "" ? undefined : Number(form.get(name)));
  const emails = String(form.get("emails") ?? "").split(/[\s,]+/).filter(Boolean);
  const webhookUrl = String(form.get("webhookUrl") ?? "") || null;
  return { type, placeId: form.get("placeId") || null, speedMph: number("speedMph"), minSeconds: number("minSeconds"), minutes: number("minutes"), notify: { emails, webhookUrl } };
}

/** The fields a rule of this type has: its place, its speed and duration, or its minutes. */
function ConditionFields({ type, places }: { type: AlertType; places: { id: string; name: string }[] }) {
  return (
    <>
      {type === "place_enter" || type === "place_exit" ? (
        <label>
          Place
          <select name="placeId" defaultValue="">
            <option value="">Any place</option>
            {places.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {type === "speeding" ? (
        <>
          <label>
            Over (mph) <input name="speedMph" type="number" min={1} defaultValue={70} />
          </label>
          <label>
            For at least (s) <input name="minSeconds" type="number" min={0} defaultValue={30} />
          </label>
        </>
      ) : null}
      {type === "idling" || type === "beacon_silent" ? (
        <label>
          For (min) <input name="minutes" type="number" min={1} defaultValue={type === "idling" ? 10 : 30} />
        </label>
      ) : null}
    </>
  );
}
