import { useEffect, useState } from "react";
import { MAX_ARRIVING_MINUTES, type CustomerMessageSettings } from "../../shared/jobs/customer-messages";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { CheckboxGroup, InputField, StatusLine, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useCan, useSession } from "../session/session";

type Flag = "enRoute" | "completed" | "failed" | "showProofPhoto";
const FLAGS: { value: Flag; label: string }[] = [
  { value: "enRoute", label: "On its way, with the expected time" },
  { value: "completed", label: "Done" },
  { value: "failed", label: "Could not make it (called off, or moved to another day, after they were told)" },
  { value: "showProofPhoto", label: "Show the delivery's proof photo on the tracking page" },
];

/** The settings as the form holds them. */
function settingsOf(form: FormData): CustomerMessageSettings {
  const minutes = String(form.get("arrivingMinutes") ?? "").trim();
  const chosen = new Set(form.getAll("customerMessages"));
  return {
    enRoute: chosen.has("enRoute"),
    arrivingMinutes: minutes === "" ? null : Number(minutes),
    completed: chosen.has("completed"),
    failed: chosen.has("failed"),
    showProofPhoto: chosen.has("showProofPhoto"),
  };
}

type Loaded = Pick<WorkspacePreferences, "customerMessages" | "customerSms">;

/** The workspace's choice, read once, and its save: what the server answered, or why not. */
function useCustomerMessages(workspaceId: string | undefined) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    let live = true;
    http
      .get("workspace/preferences")
      .json<WorkspacePreferences>()
      .then((p) => live && setLoaded(p))
      .catch(() => live && setMessage("Could not read the current choice"));
    return () => {
      live = false;
    };
  }, [workspaceId]);
  const save = async (customerMessages: CustomerMessageSettings) => {
    try {
      const saved = await http
        .patch("workspace/preferences", { json: { customerMessages } })
        .json<WorkspacePreferences>();
      setLoaded(saved);
      setError(null);
      setMessage("Saved");
    } catch (failure) {
      const answer = await apiErrorOf(failure);
      const minutesError = answer?.fields?.["customerMessages.arrivingMinutes"]?.[0] ?? null;
      setError(minutesError);
      // The field says what is wrong with it; the status line only that nothing was saved.
      setMessage(minutesError ? "Not saved" : (answer?.message ?? "Could not save"));
    }
  };
  return { loaded, message, error, save };
}

/**
 * Preferences → Customer messages (issue 53, docs/decisions/0085): what a job's customer is told,
 * by e-mail and, where the workspace set its own Twilio account (sms-account.tsx), by text.
 * Owners and admins save it with `PATCH /api/workspace/preferences { customerMessages }`; others
 * see it disabled.
 */
export function CustomerMessagesPreference() {
  const mayChange = useCan("workspace.configure");
  const { loaded, message, error, save } = useCustomerMessages(useSession().workspace?.id);
  const settings = loaded?.customerMessages;
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save(settingsOf(new FormData(event.currentTarget)));
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Customer messages" noValidate>
      <h2>Customer messages</h2>
      <p className="muted">
        A job&apos;s customer is told by e-mail
        {loaded?.customerSms
          ? " and, with a phone number, by text"
          : " (texts go once an owner or admin sets the workspace's Twilio account below)"}
        , each message once per job, with a link to follow the vehicle and a link to stop the messages.
      </p>
      {settings ? <SettingsFields settings={settings} disabled={!mayChange} error={error} /> : null}
      {!mayChange && (
        <p className="muted role-note">
          Only the workspace&apos;s owners and admins can change what customers are told.
        </p>
      )}
      <Submit disabled={!mayChange || !settings}>Save</Submit>
      <StatusLine message={message} />
    </form>
  );
}

function SettingsFields(props: { settings: CustomerMessageSettings; disabled: boolean; error: string | null }) {
  const { settings } = props;
  return (
    // keyed by the saved value: the inputs start again from what the server answered
    <fieldset disabled={props.disabled} className="plain-fieldset" key={JSON.stringify(settings)}>
      <CheckboxGroup
        legend="Tell customers when their visit is"
        name="customerMessages"
        options={FLAGS}
        defaultValues={FLAGS.filter((f) => settings[f.value]).map((f) => f.value)}
      />
      <InputField
        id="customer-arriving-minutes"
        name="arrivingMinutes"
        label="Arriving: minutes before the expected time (empty: no such message)"
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_ARRIVING_MINUTES}
        defaultValue={settings.arrivingMinutes ?? ""}
        error={props.error}
      />
    </fieldset>
  );
}
