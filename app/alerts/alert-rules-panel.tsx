import { useState, type FormEvent } from "react";
import { gallonsToLitres, litresToGallons } from "../../shared/units/units";
import { toast } from "sonner";
import {
  alertRuleBodySchema,
  alertTypeLabels,
  alertTypes,
  type AlertRule,
  type AlertRuleConfig,
  type AlertType,
} from "../../shared/alerts/alert-rules";
import { can } from "../../shared/account/roles";
import { http } from "../lib/http";
import { useApiAction } from "../components/use-api-action";
import { useSession } from "../session/session";
import { useAlertRules, usePlaces } from "../store/places-alerts";
import { useMembers } from "../team/use-members";
import { WebhookSecret } from "./webhook-secret";
import { CheckboxGroup, ConfirmAction, ErrorLine, InputField, SelectField, Submit } from "../components/form";

/**
 * The workspace's alert rules: listed, added, edited, deleted (REST; they sync back to every
 * browser), each with whom it tells besides the Inbox: members by e-mail, a webhook
 * (docs/decisions/0024). A rule's fields depend on its type; the shared schema checks them here
 * as the server does. Owners and admins also see the webhook signing secret.
 */
export function AlertRulesPanel() {
  const rules = useAlertRules();
  const places = usePlaces();
  const session = useSession();
  const members = useMembers(session.workspace?.id).data?.members ?? [];
  const [editing, setEditing] = useState<AlertRule | null>(null);
  const placeName = (id: string | null | undefined) =>
    id ? (places.find((p) => p.id === id)?.name ?? "a deleted place") : "any place";
  const remove = (id: string) => http.delete(`alert-rules/${id}`).catch(() => toast.error("Could not delete the rule"));
  return (
    <section className="alert-rules" aria-labelledby="alert-rules-heading">
      <h2 id="alert-rules-heading">Alert rules</h2>
      <ul className="rule-list">
        {rules.map((rule) => (
          <li key={rule.id}>
            <span>
              {ruleSummary(rule, placeName)}
              <span className="muted">{deliverySummary(rule)}</span>
            </span>
            <button
              type="button"
              className="link-button"
              onClick={() => setEditing(rule)}
              aria-label={`Edit rule: ${ruleSummary(rule, placeName)}`}
            >
              Edit
            </button>
            <ConfirmAction
              label="Delete"
              className="link-button"
              ariaLabel={`Delete rule: ${ruleSummary(rule, placeName)}`}
              question="Delete this rule?"
              confirmLabel="Delete rule"
              onConfirm={() => remove(rule.id)}
            />
          </li>
        ))}
      </ul>
      <RuleForm
        key={editing?.id ?? "new"}
        places={places}
        members={members}
        editing={editing}
        done={() => setEditing(null)}
      />
      {can(session.role, "workspace.configure") ? <WebhookSecret /> : null}
    </section>
  );
}

function deliverySummary(rule: AlertRule): string {
  const emails = rule.notify?.emails?.length ?? 0;
  const parts = [
    emails ? `e-mail to ${emails} ${emails === 1 ? "member" : "members"}` : null,
    rule.notify?.webhookUrl ? "webhook" : null,
  ].filter(Boolean);
  return parts.length ? ` · ${parts.join(", ")}` : "";
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
    case "fuel_drop":
      return rule.minLitres === undefined
        ? `Fuel drop${scope}`
        : `Fuel drop of ${litresToGallons(rule.minLitres).toFixed(1)} gal or more${scope}`;
    default:
      return `${alertTypeLabels[rule.type]}${scope}`;
  }
}

function RuleForm({
  places,
  members,
  editing,
  done,
}: {
  places: { id: string; name: string }[];
  members: { email: string }[];
  editing: AlertRule | null;
  done: () => void;
}) {
  const [type, setType] = useState<AlertType>(editing?.type ?? "place_enter");
  const save = useApiAction(async (rule: AlertRuleConfig, formElement: HTMLFormElement) => {
    if (editing) await http.patch(`alert-rules/${editing.id}`, { json: rule });
    else await http.post("alert-rules", { json: rule });
    formElement.reset();
    toast.success(editing ? "Rule saved" : "Rule added");
    done();
  }, "Could not save the rule");
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const parsed = alertRuleBodySchema.safeParse(ruleFromForm(new FormData(e.currentTarget), type, editing));
    if (!parsed.success)
      return save.setRefusal({ message: parsed.error.issues[0]?.message ?? "Check the rule", fields: {} });
    void save.run(parsed.data, e.currentTarget);
  };
  const prefix = editing ? `rule-${editing.id}` : "rule-new";
  return (
    <form
      className="rule-form form-stack"
      onSubmit={submit}
      aria-label={editing ? "Edit alert rule" : "New alert rule"}
    >
      <SelectField
        id={`${prefix}-type`}
        label="When"
        name="type"
        value={type}
        onChange={(e) => setType(e.target.value as AlertType)}
        options={alertTypes.map((t) => ({ value: t, label: alertTypeLabels[t] }))}
      />
      <ConditionFields prefix={prefix} type={type} places={places} editing={editing} />
      <DeliveryFields prefix={prefix} members={members} editing={editing} />
      <ErrorLine message={save.refusal?.message ?? null} />
      <div className="form-actions">
        <Submit pending={save.pending}>{editing ? "Save rule" : "Add rule"}</Submit>
        {editing ? (
          <button type="button" className="button" onClick={done}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** What the form says, as the rule body the API takes (the schema checks it next). An edit keeps the rule's vehicles. */
function ruleFromForm(form: FormData, type: AlertType, editing: AlertRule | null) {
  const number = (name: string) =>
    form.get(name) === null || form.get(name) === "" ? undefined : Number(form.get(name));
  const emails = form.getAll("emails").map(String);
  const webhookUrl = String(form.get("webhookUrl") ?? "").trim() || null;
  return {
    type,
    placeId: form.get("placeId") || null,
    speedMph: number("speedMph"),
    minSeconds: number("minSeconds"),
    minutes: number("minutes"),
    // The form speaks gallons, as the Fuel pages do; the rule keeps litres (DESIGN.md).
    minLitres:
      number("minGallons") === undefined ? undefined : Math.round(gallonsToLitres(number("minGallons")!) * 10) / 10,
    vehicleIds: editing?.vehicleIds ?? null,
    notify: { emails, webhookUrl },
  };
}

/** The fields a rule of this type has: its place, its speed and duration, or its minutes. */
function ConditionFields({
  prefix,
  type,
  places,
  editing,
}: {
  prefix: string;
  type: AlertType;
  places: { id: string; name: string }[];
  editing: AlertRule | null;
}) {
  const value = <K extends string>(key: K) =>
    editing && key in editing ? (editing as unknown as Record<K, number | string | null>)[key] : undefined;
  if (type === "place_enter" || type === "place_exit") {
    const options = [{ value: "", label: "Any place" }, ...places.map((p) => ({ value: p.id, label: p.name }))];
    return (
      <SelectField
        id={`${prefix}-place`}
        label="Place"
        name="placeId"
        defaultValue={value("placeId") ?? ""}
        options={options}
      />
    );
  }
  if (type === "speeding")
    return <SpeedingFields prefix={prefix} speedMph={value("speedMph")} minSeconds={value("minSeconds")} />;
  if (type === "fuel_drop") {
    const minLitres = value("minLitres");
    return (
      <InputField
        id={`${prefix}-min-gallons`}
        label="At least (gal)"
        hint="Empty: every drop. A minimum needs the vehicle's tank size (its Settings)."
        name="minGallons"
        type="number"
        min={0.1}
        step={0.1}
        defaultValue={typeof minLitres === "number" ? litresToGallons(minLitres).toFixed(1) : ""}
      />
    );
  }
  if (type === "idling" || type === "beacon_silent") {
    return (
      <InputField
        id={`${prefix}-minutes`}
        label="For (min)"
        name="minutes"
        type="number"
        min={1}
        defaultValue={value("minutes") ?? (type === "idling" ? 10 : 30)}
      />
    );
  }
  return null;
}

/** A speeding rule's speed, and how long it must last (so an overtake raises nothing). */
function SpeedingFields({
  prefix,
  speedMph,
  minSeconds,
}: {
  prefix: string;
  speedMph?: number | string | null;
  minSeconds?: number | string | null;
}) {
  return (
    <>
      <InputField
        id={`${prefix}-speed`}
        label="Over (mph)"
        name="speedMph"
        type="number"
        min={1}
        defaultValue={speedMph ?? 70}
      />
      <InputField
        id={`${prefix}-seconds`}
        label="For at least (s)"
        hint="A shorter burst is not speeding: no alert for an overtake."
        name="minSeconds"
        type="number"
        min={0}
        defaultValue={minSeconds ?? 30}
      />
    </>
  );
}

/** Whom the rule tells besides the Inbox: members by e-mail, a signed webhook (docs/decisions/0024). */
function DeliveryFields({
  prefix,
  members,
  editing,
}: {
  prefix: string;
  members: { email: string }[];
  editing: AlertRule | null;
}) {
  return (
    <>
      <CheckboxGroup
        legend="E-mail to"
        name="emails"
        options={members.map((m) => ({ value: m.email, label: m.email }))}
        defaultValues={editing?.notify?.emails ?? []}
        empty="No members loaded"
      />
      <InputField
        id={`${prefix}-webhook`}
        label="Webhook"
        name="webhookUrl"
        type="url"
        placeholder="https://"
        defaultValue={editing?.notify?.webhookUrl ?? ""}
        hint="Alerts arrive in this Inbox; the chosen members also get an e-mail, and the webhook a signed JSON POST (retried for a day if it fails)."
      />
    </>
  );
}
