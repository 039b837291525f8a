import { useState } from "react";
import type { WorkspacePreferences } from "../../shared/reports/reports";
import type { WorkspaceUnits } from "../../shared/units/units";
import { SelectField, Submit } from "../components/form";
import { apiErrorOf, http } from "../lib/http";
import { setWorkspaceUnits, useWorkspaceUnits } from "../reports/use-workspace-time-zone";
import { useCan, useSession } from "../session/session";

const labels: Record<WorkspaceUnits, string> = {
  us: "US: miles, gallons, mpg",
  metric: "Metric: km, litres, L/100 km",
};

/** Preferences → Units (docs/decisions/0060): what fuel volumes and economy are shown in; owners and admins set it. */
export function UnitsPreference() {
  const workspaceId = useSession().workspace?.id;
  const current = useWorkspaceUnits();
  const mayChange = useCan("workspace.configure");
  const [value, setValue] = useState<WorkspaceUnits>();
  const [message, setMessage] = useState<string | null>(null);
  const chosen = value ?? current;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!workspaceId) return;
    try {
      const saved = await http.patch("workspace/preferences", { json: { units: chosen } }).json<WorkspacePreferences>();
      setWorkspaceUnits(workspaceId, saved.units);
      setMessage("Saved");
    } catch (error) {
      setMessage((await apiErrorOf(error))?.message ?? "Could not save");
    }
  };
  return (
    <form className="card" onSubmit={(e) => void save(e)} aria-label="Units">
      <SelectField
        id="workspace-units"
        label="Units"
        value={chosen}
        disabled={!mayChange}
        onChange={(e) => setValue(e.currentTarget.value as WorkspaceUnits)}
        options={(Object.keys(labels) as WorkspaceUnits[]).map((u) => ({ value: u, label: labels[u] }))}
      />
      <p className="muted">Fuel volumes and economy on the Fuel pages are shown in these.</p>
      <Submit disabled={!mayChange || chosen === current}>Save</Submit>
      {message && (
        <span className="muted" role="status">
          {" "}
          {message}
        </span>
      )}
    </form>
  );
}
