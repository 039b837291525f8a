import { useState, type ReactNode } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import { SelectField, StatusLine, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { useCan, useSession } from "../session/session";

/**
 * One workspace preference chosen from a list (Preferences → Units, Clock, Work orders): owners and
 * admins save it with `PATCH /api/workspace/preferences { [field]: value }` (`sent` turns the choice
 * into the value, for a preference that is not a word), and `onSaved` keeps the answer on this
 * device; others see it disabled.
 */
export function PreferenceCard<T extends string>({
  id,
  label,
  field,
  current,
  labels,
  onSaved,
  sent = (choice) => choice,
  children,
}: {
  id: string;
  label: string;
  field: keyof WorkspacePreferences;
  current: T;
  labels: Record<T, string>;
  onSaved: (workspaceId: string, saved: WorkspacePreferences) => void;
  sent?: (choice: T) => unknown;
  children: ReactNode;
}) {
  const workspaceId = useSession().workspace?.id;
  const mayChange = useCan("workspace.configure");
  const [value, setValue] = useState<T>();
  const [message, setMessage] = useState<string | null>(null);
  const chosen = value ?? current;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspaceId) return;
    try {
      const saved = await http
        .patch("workspace/preferences", { json: { [field]: sent(chosen) } })
        .json<WorkspacePreferences>();
      onSaved(workspaceId, saved);
      setMessage("Saved");
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not save");
    }
  };
  return (
    <form className="card" onSubmit={(e) => void save(e)} aria-label={label}>
      <SelectField
        id={id}
        label={label}
        value={chosen}
        disabled={!mayChange}
        onChange={(e) => setValue(e.currentTarget.value as T)}
        options={(Object.keys(labels) as T[]).map((v) => ({ value: v, label: labels[v] }))}
      />
      <p className="muted">{children}</p>
      <Submit disabled={!mayChange || chosen === current}>Save</Submit>
      <StatusLine message={message} />
    </form>
  );
}
